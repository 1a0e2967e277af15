import { Logger } from '@nestjs/common';
import mongoose, { Connection, mongo } from 'mongoose';
import type { Doc } from './mongo-documents';

/** Every collection the adapter writes, by name: the index definitions and the repositories share these. */
export const COLLECTIONS = {
  storeLocks: 'store_locks',
  systemClaims: 'system_claims',
  organizations: 'organizations',
  environments: 'environments',
  apiKeys: 'api_keys',
  idempotencyKeys: 'idempotency_keys',
  subscribers: 'subscribers',
  preferences: 'subscriber_preferences',
  topics: 'topics',
  topicSubscriptions: 'topic_subscriptions',
  tenants: 'tenants',
  contexts: 'contexts',
  environmentVariables: 'environment_variables',
  integrations: 'integrations',
  workflows: 'workflows',
  layouts: 'layouts',
  triggers: 'triggers',
  notifications: 'notifications',
  jobs: 'jobs',
  executionDetails: 'execution_details',
  messages: 'messages',
  digestBuckets: 'digest_buckets',
  throttleWindows: 'throttle_windows',
  deliveryEvents: 'delivery_events',
  suppressions: 'suppressions',
  queueJobs: 'queue_jobs',
  webhookEndpoints: 'webhook_endpoints',
  webhookDeliveries: 'webhook_deliveries',
  webhookAttempts: 'webhook_attempts',
  translations: 'translations',
  translationSettings: 'translation_settings',
} as const;
export type CollectionName = (typeof COLLECTIONS)[keyof typeof COLLECTIONS];

/** What the repositories need from MongoDB: collections, transactions, and closing. */
export interface MongoStore {
  /** Documents are keyed by the domain's own 24-hex id (or a natural key) as a string `_id`; DocumentMapper types them. */
  collection(name: CollectionName): mongo.Collection<Doc>;
  /** Runs `work` in one transaction (retried by the driver on transient errors); MongoDB runs transactions on replica sets only. */
  transaction<T>(work: (session: mongo.ClientSession) => Promise<T>): Promise<T>;
  /** Answers when the server does (the health check). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
export const MONGO_STORE = Symbol('MongoStore');

export interface MongoStoreOptions {
  /** mongodb://… or mongodb+srv://… */
  url: string;
  /** The database to use instead of the URL's (tests isolate themselves this way). */
  dbName?: string;
  poolSize?: number;
}

/** Thrown at start when the server cannot give the adapter what it relies on. */
export class MongoStoreUnsuitableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MongoStoreUnsuitableError';
  }
}

/**
 * Whether a `hello` answer comes from a server that runs transactions: a replica set member (it
 * names its set) or a mongos router (a sharded cluster). A standalone server does neither.
 */
export function runsTransactions(hello: { setName?: unknown; msg?: unknown }): boolean {
  return typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
}

class MongooseStore implements MongoStore {
  constructor(private readonly connection: Connection) {}

  collection(name: CollectionName): mongo.Collection<Doc> {
    return this.connection.db!.collection<Doc>(name);
  }

  async transaction<T>(work: (session: mongo.ClientSession) => Promise<T>): Promise<T> {
    const session = await this.connection.startSession();
    try {
      return await session.withTransaction(() => work(session), { readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' } });
    } finally {
      await session.endSession();
    }
  }

  async ping(): Promise<void> {
    await this.connection.db!.command({ ping: 1 });
  }

  async close(): Promise<void> {
    this.connection.removeAllListeners('disconnected'); // a close is not an outage
    await this.connection.close();
  }
}

/**
 * The driver reconnects by itself; the process only says when the server went away and came back.
 * An `error` event nobody listens to would end the process.
 */
function watchConnection(connection: Connection): void {
  const logger = new Logger('Store');
  connection.on('error', (error: Error) => logger.warn(`MongoDB connection error: ${error.message}`));
  connection.on('disconnected', () => logger.warn('MongoDB is unreachable; operations fail as store_unavailable until it answers'));
  connection.on('reconnected', () => logger.log('MongoDB answers again'));
}

/**
 * Opens the connection through mongoose. Repositories use the driver's collections mongoose holds
 * (not models): each write is a single driver operation whose filter and update the adapter states
 * exactly, so conditional updates and upserts mean what the SQL statements mean. Undefined fields
 * are left out of documents, as the SQL adapter leaves absent fields NULL and reads them back absent.
 */
export async function openMongoStore(options: MongoStoreOptions): Promise<MongoStore> {
  const connection = await mongoose
    .createConnection(options.url, {
      dbName: options.dbName,
      maxPoolSize: options.poolSize ?? 10,
      ignoreUndefined: true,
      autoIndex: false,
      autoCreate: false,
      // While no server answers, an operation fails after this long (StoreUnavailableError) rather than waiting on.
      serverSelectionTimeoutMS: 5_000,
    })
    .asPromise();
  watchConnection(connection);
  try {
    const hello = await connection.db!.admin().command({ hello: 1 });
    if (!runsTransactions(hello)) {
      throw new MongoStoreUnsuitableError(
        'MongoDB must run as a replica set (a single-node one will do): notifications are written with their jobs and messages in one transaction, which a standalone server refuses',
      );
    }
  } catch (error) {
    await connection.close();
    throw error;
  }
  return new MongooseStore(connection);
}
