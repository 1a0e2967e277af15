import { CredentialCipher } from '@app/integrations';
import { guardedRepository } from './mongo-errors';
import { MongoStore } from './mongo-store';
import { MongoEnvironmentDataPurger } from './environments/mongo-environment-data.purger';
import { MongoEnvironmentRepository } from './environments/mongo-environment.repository';
import { MongoIdempotencyStore } from './environments/mongo-idempotency.store';
import { MongoIntegrationRepository } from './integrations/mongo-integration.repository';
import { MongoPreferenceRepository } from './subscribers/mongo-preference.repository';
import { MongoSubscriberRepository } from './subscribers/mongo-subscriber.repository';
import { MongoTenantRepository } from './tenants/mongo-tenant.repository';
import { MongoContextRepository } from './contexts/mongo-context.repository';
import { MongoEnvironmentVariableRepository } from './environments/mongo-environment-variable.repository';
import { MongoTopicRepository } from './topics/mongo-topic.repository';
import { MongoWorkflowRepository } from './workflows/mongo-workflow.repository';
import { MongoLayoutRepository } from './workflows/mongo-layout.repository';
import { MongoDeliveryEventRepository, MongoSuppressionRepository } from './delivery/mongo-delivery-event.repository';
import { MongoDigestBucketRepository } from './delivery/mongo-digest-bucket.repository';
import { MongoThrottleWindowRepository } from './delivery/mongo-throttle-window.repository';
import { MongoChainRepository } from './delivery/mongo-chain.repository';
import { MongoExecutionDetailRepository } from './delivery/mongo-execution-detail.repository';
import { MongoJobRepository } from './delivery/mongo-job.repository';
import { MongoMessageRepository } from './delivery/mongo-message.repository';
import { MongoNotificationRepository } from './delivery/mongo-notification.repository';
import { MongoTriggerRepository } from './delivery/mongo-trigger.repository';
import { MongoInboxRepository } from './inbox/mongo-inbox.repository';
import { MongoQueueJobStore } from './queue/mongo-queue-job.store';
import { MongoWebhookDeliveryRepository } from './webhooks/mongo-webhook-delivery.repository';
import { MongoWebhookEndpointRepository } from './webhooks/mongo-webhook-endpoint.repository';
import { MongoTranslationRepository } from './translations/mongo-translation.repository';

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
    contexts: guardedRepository('contexts', new MongoContextRepository(store)),
    environmentVariables: guardedRepository('environmentVariables', new MongoEnvironmentVariableRepository(store, cipher)),
    integrations: guardedRepository('integrations', new MongoIntegrationRepository(store, cipher)),
    workflows: guardedRepository('workflows', new MongoWorkflowRepository(store)),
    layouts: guardedRepository('layouts', new MongoLayoutRepository(store)),
    triggers: guardedRepository('triggers', new MongoTriggerRepository(store)),
    notifications: guardedRepository('notifications', new MongoNotificationRepository(store)),
    jobs: guardedRepository('jobs', new MongoJobRepository(store)),
    chains: guardedRepository('chains', new MongoChainRepository(store)),
    messages: guardedRepository('messages', new MongoMessageRepository(store)),
    executionDetails: guardedRepository('executionDetails', new MongoExecutionDetailRepository(store)),
    digestBuckets: guardedRepository('digestBuckets', new MongoDigestBucketRepository(store)),
    throttleWindows: guardedRepository('throttleWindows', new MongoThrottleWindowRepository(store)),
    deliveryEvents: guardedRepository('deliveryEvents', new MongoDeliveryEventRepository(store)),
    suppressions: guardedRepository('suppressions', new MongoSuppressionRepository(store)),
    /** The embedded JobQueue's jobs. */
    queueJobs: guardedRepository('queueJobs', new MongoQueueJobStore(store)),
    webhookEndpoints: guardedRepository('webhookEndpoints', new MongoWebhookEndpointRepository(store, cipher)),
    webhookDeliveries: guardedRepository('webhookDeliveries', new MongoWebhookDeliveryRepository(store)),
    inbox: guardedRepository('inbox', new MongoInboxRepository(store)),
    translations: guardedRepository('translations', new MongoTranslationRepository(store)),
    environmentData: guardedRepository('environmentData', new MongoEnvironmentDataPurger(store)),
  };
}
export type MongoRepositories = ReturnType<typeof mongoRepositories>;
