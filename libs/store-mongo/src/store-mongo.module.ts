import { DynamicModule, Global, Inject, InjectionToken, Module, OnApplicationShutdown, Provider } from '@nestjs/common';
import {
  CHAIN_REPOSITORY,
  DELIVERY_EVENT_REPOSITORY,
  DIGEST_BUCKET_REPOSITORY,
  EXECUTION_DETAIL_REPOSITORY,
  JOB_REPOSITORY,
  MESSAGE_REPOSITORY,
  NOTIFICATION_REPOSITORY,
  SUPPRESSION_REPOSITORY,
  THROTTLE_WINDOW_REPOSITORY,
  TRIGGER_REPOSITORY,
} from '@app/delivery';
import { ENVIRONMENT_DATA_PURGER, ENVIRONMENT_REPOSITORY, ENVIRONMENT_VARIABLE_REPOSITORY } from '@app/environments';
import { CONTEXT_REPOSITORY } from '@app/contexts';
import { INBOX_REPOSITORY } from '@app/inbox';
import { QUEUE_JOB_STORE } from '@app/kernel';
import { WEBHOOK_DELIVERY_REPOSITORY, WEBHOOK_ENDPOINT_REPOSITORY } from '@app/webhooks';
import { CREDENTIAL_CIPHER, CredentialCipher, INTEGRATION_REPOSITORY } from '@app/integrations';
import { PREFERENCE_REPOSITORY, SUBSCRIBER_REPOSITORY, TOPIC_REPOSITORY } from '@app/subscribers';
import { TENANT_REPOSITORY } from '@app/tenants';
import { CachedLayoutRepository, CachedWorkflowRepository, LAYOUT_REPOSITORY, WORKFLOW_REPOSITORY } from '@app/workflows';
import { CachedTranslationRepository, TRANSLATION_REPOSITORY } from '@app/workflows';
import { ensureIndexes } from './mongo-indexes';
import { MongoRepositories, mongoRepositories } from './mongo-repositories';
import { MONGO_STORE, MongoStore, MongoStoreOptions, openMongoStore } from './mongo-store';

const MONGO_REPOSITORIES = Symbol('MongoRepositories');

/** Each port token and the adapter bound to it; the pipeline's workflow and layout lookups are cached for a moment (CachedWorkflowRepository, CachedLayoutRepository). */
const BINDINGS: [InjectionToken, (repositories: MongoRepositories) => unknown][] = [
  [ENVIRONMENT_REPOSITORY, (r) => r.environments],
  [SUBSCRIBER_REPOSITORY, (r) => r.subscribers],
  [PREFERENCE_REPOSITORY, (r) => r.preferences],
  [TOPIC_REPOSITORY, (r) => r.topics],
  [TENANT_REPOSITORY, (r) => r.tenants],
  [CONTEXT_REPOSITORY, (r) => r.contexts],
  [ENVIRONMENT_VARIABLE_REPOSITORY, (r) => r.environmentVariables],
  [INTEGRATION_REPOSITORY, (r) => r.integrations],
  [WORKFLOW_REPOSITORY, (r) => new CachedWorkflowRepository(r.workflows)],
  [LAYOUT_REPOSITORY, (r) => new CachedLayoutRepository(r.layouts)],
  [TRIGGER_REPOSITORY, (r) => r.triggers],
  [NOTIFICATION_REPOSITORY, (r) => r.notifications],
  [JOB_REPOSITORY, (r) => r.jobs],
  [CHAIN_REPOSITORY, (r) => r.chains],
  [EXECUTION_DETAIL_REPOSITORY, (r) => r.executionDetails],
  [MESSAGE_REPOSITORY, (r) => r.messages],
  [DIGEST_BUCKET_REPOSITORY, (r) => r.digestBuckets],
  [THROTTLE_WINDOW_REPOSITORY, (r) => r.throttleWindows],
  [DELIVERY_EVENT_REPOSITORY, (r) => r.deliveryEvents],
  [SUPPRESSION_REPOSITORY, (r) => r.suppressions],
  [QUEUE_JOB_STORE, (r) => r.queueJobs],
  [WEBHOOK_ENDPOINT_REPOSITORY, (r) => r.webhookEndpoints],
  [WEBHOOK_DELIVERY_REPOSITORY, (r) => r.webhookDeliveries],
  [INBOX_REPOSITORY, (r) => r.inbox],
  [TRANSLATION_REPOSITORY, (r) => new CachedTranslationRepository(r.translations)],
  [ENVIRONMENT_DATA_PURGER, (r) => r.environmentData],
];

class MongoStoreCloser implements OnApplicationShutdown {
  constructor(@Inject(MONGO_STORE) private readonly store: MongoStore) {}
  async onApplicationShutdown() {
    await this.store.close();
  }
}

/** Binds every repository port, and the embedded queue's job store, to its MongoDB adapter, creating the indexes at start. */
@Global()
@Module({})
export class StoreMongoModule {
  static forRoot(options: MongoStoreOptions): DynamicModule {
    const store: Provider = {
      provide: MONGO_STORE,
      useFactory: async () => {
        const opened = await openMongoStore(options);
        try {
          await ensureIndexes(opened);
        } catch (error) {
          await opened.close();
          throw error;
        }
        return opened;
      },
    };
    const repositories: Provider = {
      provide: MONGO_REPOSITORIES,
      inject: [MONGO_STORE, CREDENTIAL_CIPHER],
      useFactory: (opened: MongoStore, cipher: CredentialCipher) => mongoRepositories(opened, cipher),
    };
    const bound: Provider[] = BINDINGS.map(([token, pick]) => ({ provide: token, inject: [MONGO_REPOSITORIES], useFactory: pick }));
    return {
      module: StoreMongoModule,
      providers: [store, MongoStoreCloser, repositories, ...bound],
      exports: [MONGO_STORE, ...BINDINGS.map(([token]) => token)],
    };
  }
}
