import { randomBytes } from 'node:crypto';
import { AesGcmCredentialCipher } from '@app/integrations';
import {
  SqlClient,
  SqlEnvironmentDataPurger,
  SqlEnvironmentRepository,
  SqlEnvironmentVariableRepository,
  SqlIdempotencyStore,
  SqlIntegrationRepository,
  SqlQueueJobStore,
  SqlWebhookDeliveryRepository,
  SqlWebhookEndpointRepository,
  createSqlClient,
  migrate,
} from '@app/store-sql';
import {
  SqlDigestBucketRepository,
  SqlDeliveryEventRepository,
  SqlSuppressionRepository,
  SqlExecutionDetailRepository,
  SqlChainRepository,
  SqlJobRepository,
  SqlMessageRepository,
  SqlNotificationRepository,
  SqlThrottleWindowRepository,
  SqlTriggerRepository,
} from '../../libs/store-sql/src/delivery';
import { SqlPreferenceRepository, SqlSubscriberRepository } from '../../libs/store-sql/src/subscribers';
import { SqlTenantRepository } from '../../libs/store-sql/src/tenants';
import { SqlContextRepository } from '../../libs/store-sql/src/contexts';
import { SqlTopicRepository } from '../../libs/store-sql/src/topics';
import { SqlLayoutRepository, SqlWorkflowRepository } from '../../libs/store-sql/src/workflows';
import { Repositories, createMemoryStore } from '../fakes/memory';
import { SqlInboxRepository } from '../../libs/store-sql/src/inbox';
import { SqlTranslationRepository } from '../../libs/store-sql/src/translations';
import { emptyPgliteDir, migratedPgliteDir } from './pglite-template';
import { TEST_DATABASE_URL, uniqueName } from './test-env';

export interface StoreFixture {
  name: string;
  /**
   * A fresh, migrated, empty store for one suite. PGlite's is a copy of the run's migrated data
   * directory unless `fromEmpty` asks for the migrations to run here, on a copy of its unmigrated one.
   */
  open(options?: { fromEmpty?: boolean }): Promise<SqlClient>;
}

/** The SQL stores every contract suite runs against. */
export const SQL_STORES: StoreFixture[] = [
  {
    name: 'PGlite',
    async open({ fromEmpty = false } = {}) {
      if (!fromEmpty) return createSqlClient({ dataDir: await migratedPgliteDir() });
      const client = await createSqlClient({ dataDir: await emptyPgliteDir() });
      await migrate(client);
      return client;
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const client = await createSqlClient({ url: TEST_DATABASE_URL, schema: uniqueName('c'), poolSize: 4 });
      await migrate(client);
      return client;
    },
  },
];

/** One opened store with an adapter of every store-backed port. */
export interface OpenedStore {
  repositories: Repositories;
  close(): Promise<void>;
}

export interface RepositoryStoreFixture {
  name: string;
  /** A fresh, empty store for one suite. */
  open(): Promise<OpenedStore>;
}

/** Every SQL adapter on one client (integration credentials under a random key). */
export function sqlRepositories(sql: SqlClient): Repositories {
  return {
    environments: new SqlEnvironmentRepository(sql),
    idempotency: new SqlIdempotencyStore(sql),
    subscribers: new SqlSubscriberRepository(sql),
    preferences: new SqlPreferenceRepository(sql),
    topics: new SqlTopicRepository(sql),
    tenants: new SqlTenantRepository(sql),
    contexts: new SqlContextRepository(sql),
    environmentVariables: new SqlEnvironmentVariableRepository(sql, new AesGcmCredentialCipher(randomBytes(32))),
    integrations: new SqlIntegrationRepository(sql, new AesGcmCredentialCipher(randomBytes(32))),
    workflows: new SqlWorkflowRepository(sql),
    layouts: new SqlLayoutRepository(sql),
    triggers: new SqlTriggerRepository(sql),
    notifications: new SqlNotificationRepository(sql),
    jobs: new SqlJobRepository(sql),
    chains: new SqlChainRepository(sql),
    messages: new SqlMessageRepository(sql),
    executionDetails: new SqlExecutionDetailRepository(sql),
    digestBuckets: new SqlDigestBucketRepository(sql),
    throttleWindows: new SqlThrottleWindowRepository(sql),
    deliveryEvents: new SqlDeliveryEventRepository(sql),
    suppressions: new SqlSuppressionRepository(sql),
    queueJobs: new SqlQueueJobStore(sql),
    webhookEndpoints: new SqlWebhookEndpointRepository(sql, new AesGcmCredentialCipher(randomBytes(32))),
    webhookDeliveries: new SqlWebhookDeliveryRepository(sql),
    inbox: new SqlInboxRepository(sql),
    translations: new SqlTranslationRepository(sql),
    environmentData: new SqlEnvironmentDataPurger(sql),
  };
}

/** The in-memory fakes (test/fakes/memory), held to the same contract suites as the SQL adapters. */
export const MEMORY_STORE: RepositoryStoreFixture = {
  name: 'memory',
  async open() {
    return { repositories: createMemoryStore(), close: async () => undefined };
  },
};

/** The stores every repository contract suite runs against: PGlite, PostgreSQL and memory. */
export const REPOSITORY_STORES: RepositoryStoreFixture[] = [
  ...SQL_STORES.map((store): RepositoryStoreFixture => ({
    name: store.name,
    async open() {
      const sql = await store.open();
      return { repositories: sqlRepositories(sql), close: () => sql.close() };
    },
  })),
  MEMORY_STORE,
];

/** A suite's `open`: a fresh store of `fixture`, narrowed to the one repository the suite tests. */
export function openRepository<T>(fixture: RepositoryStoreFixture, pick: (repositories: Repositories) => T) {
  return async (): Promise<{ repository: T; close(): Promise<void> }> => {
    const opened = await fixture.open();
    return { repository: pick(opened.repositories), close: () => opened.close() };
  };
}
