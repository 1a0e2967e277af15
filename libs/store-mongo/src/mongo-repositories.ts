import { CredentialCipher } from '@app/integrations';
import { guardedRepository } from './mongo-errors';
import { MongoStore } from './mongo-store';
import { MongoEnvironmentRepository } from './environments/mongo-environment.repository';
import { MongoIdempotencyStore } from './environments/mongo-idempotency.store';
import { MongoIntegrationRepository } from './integrations/mongo-integration.repository';
import { MongoPreferenceRepository } from './subscribers/mongo-preference.repository';
import { MongoSubscriberRepository } from './subscribers/mongo-subscriber.repository';
import { MongoTenantRepository } from './tenants/mongo-tenant.repository';
import { MongoTopicRepository } from './topics/mongo-topic.repository';
import { MongoWorkflowRepository } from './workflows/mongo-workflow.repository';

/**
 * An adapter of every store-backed port on one MongoDB store, each guarded (guardedRepository):
 * what StoreMongoModule binds to the port tokens and what the contract suites run against.
 */
export function mongoRepositories(store: MongoStore, cipher: CredentialCipher) {
  return {
    environments: guardedRepository('environments', new MongoEnvironmentRepository(store)),
    idempotency: guardedRepository('idempotency', new MongoIdempotencyStore(store)),
    subscribers: guardedRepository('subscribers', new MongoSubscriberRepository(store)),
    preferences: guardedRepository('preferences', new MongoPreferenceRepository(store)),
    topics: guardedRepository('topics', new MongoTopicRepository(store)),
    tenants: guardedRepository('tenants', new MongoTenantRepository(store)),
    integrations: guardedRepository('integrations', new MongoIntegrationRepository(store, cipher)),
    workflows: guardedRepository('workflows', new MongoWorkflowRepository(store)),
  };
}
export type MongoRepositories = ReturnType<typeof mongoRepositories>;
