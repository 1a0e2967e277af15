import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { loadConfig } from '@app/config';
import { CreateApiKey, CreateEnvironment, ENVIRONMENT_REPOSITORY, EnvironmentRepository } from '@app/environments';
import { Clock } from '@app/kernel';
import { AppModule } from '../../apps/api/src/app.module';
import { configureApp, createHttpAdapter } from '../../apps/api/src/configure-app';
import { migratedPgliteDir } from './pglite-template';
import { MONGODB_SKIP_MARK } from './skip-marks';
import { scratchDir } from './test-run';
import { TEST_DATABASE_URL, TEST_ENCRYPTION_KEY, TEST_MONGODB_URL, TEST_REDIS_URL, uniqueName } from './test-env';

export { TEST_DATABASE_URL, TEST_ENCRYPTION_KEY, TEST_REDIS_URL, uniqueName };

export type StoreUnderTest = 'pglite' | 'postgres' | 'mongodb';

export interface TestAppOptions {
  /**
   * PostgreSQL unless a test is about the embedded store: PGlite runs PostgreSQL compiled to WebAssembly inside the
   * test's own process, several times the CPU of the native server for the same statements.
   */
  store?: StoreUnderTest;
  /** Reuse a PGlite directory, or a PostgreSQL schema / MongoDB database, to test restarts. */
  dataDir?: string;
  sqlSchema?: string;
  redis?: boolean;
  apiKey?: string;
  env?: Record<string, string>;
  clock?: Clock;
  /** Run the queue processors in the app, as the embedded mode does (default true). */
  worker?: boolean;
}

export interface TestApp {
  app: NestFastifyApplication;
  /** A supertest agent that sends `Authorization: ApiKey <key>` of the Development environment. */
  api: (key?: string) => ApiClient;
  apiKey: string;
  options: Required<Pick<TestAppOptions, 'store' | 'dataDir' | 'sqlSchema' | 'apiKey'>> & TestAppOptions;
  /** A new environment in the same organization, with its own key. */
  createEnvironment(name: string): Promise<{ environmentId: string; apiKey: string }>;
  close(): Promise<void>;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type ApiClient = Record<Method, (path: string) => request.Test>;

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const store = options.store ?? 'postgres';
  const resolved = {
    ...options,
    store,
    dataDir: options.dataDir ?? (store === 'pglite' ? await migratedPgliteDir() : scratchDir('data')),
    sqlSchema: options.sqlSchema ?? uniqueName('t'),
    apiKey: options.apiKey ?? `test_${randomBytes(16).toString('hex')}`,
  };
  const config = loadConfig({
    DATA_DIR: resolved.dataDir,
    BOOTSTRAP_API_KEY: resolved.apiKey,
    STORE_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    LOG_LEVEL: 'silent',
    ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
    ...(store === 'postgres' ? { DATABASE_URL: TEST_DATABASE_URL } : {}),
    ...(store === 'mongodb' ? { DATABASE_URL: requiredMongoUrl() } : {}),
    ...(options.redis ? { REDIS_URL: TEST_REDIS_URL } : {}),
    ...options.env,
  });
  const moduleRef = await Test.createTestingModule({
    imports: [
      AppModule.forRoot({
        config,
        clock: options.clock,
        sqlSchema: resolved.sqlSchema,
        mongoDatabase: resolved.sqlSchema,
        redisKeyPrefix: `${resolved.sqlSchema}:`,
        runWorker: options.worker ?? true,
      }),
    ],
  }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createHttpAdapter(config), { bodyParser: false });
  await configureApp(app, config);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  const server = app.getHttpServer();
  const api = (key = resolved.apiKey): ApiClient => {
    const agent: TestAgent = request(server);
    const wrap = (method: Method) => (path: string) => agent[method](path).set('Authorization', `ApiKey ${key}`);
    return { get: wrap('get'), post: wrap('post'), put: wrap('put'), patch: wrap('patch'), delete: wrap('delete') };
  };
  return {
    app,
    api,
    apiKey: resolved.apiKey,
    options: resolved,
    async createEnvironment(name: string) {
      const environments = app.get<EnvironmentRepository>(ENVIRONMENT_REPOSITORY);
      const [organization] = await environments.listOrganizations();
      const environment = await app.get(CreateEnvironment).execute({ organizationId: organization.id, name });
      const { secret } = await app.get(CreateApiKey).execute({ environmentId: environment.id });
      return { environmentId: environment.id, apiKey: secret };
    },
    close: () => app.close(),
  };
}

function requiredMongoUrl(): string {
  if (!TEST_MONGODB_URL) throw new Error('the mongodb store needs MONGODB_URL (a MongoDB replica set)');
  return TEST_MONGODB_URL;
}

/**
 * The SQL stores an e2e block runs on. The contract suites hold every store adapter to its port on
 * PGlite and PostgreSQL (test/support/sql-stores.ts); an e2e block tests the service above the
 * store, so it runs on one of them, PostgreSQL (from TEST_DATABASE_URL; default the local server),
 * unless TEST_STORE_MATRIX=all asks for both. Tests about the embedded mode start it themselves.
 * Blocks that read SQL rows themselves use this list; the others use describeEachStore.
 */
export const STORES: StoreUnderTest[] = process.env.TEST_STORE_MATRIX === 'all' ? ['pglite', 'postgres'] : ['postgres'];

/**
 * Runs an e2e block once per store of `stores` (STORES unless given), and on MongoDB wherever MONGODB_URL points at a
 * replica set. Elsewhere the MongoDB block is registered but skipped, its name saying why, so the
 * report lists it as skipped rather than hiding it. `%s` in the title names the store.
 */
export function describeEachStore(title: string, block: (store: StoreUnderTest) => void, stores: StoreUnderTest[] = STORES): void {
  for (const store of stores) describe(title.replace('%s', store), () => block(store));
  if (TEST_MONGODB_URL) describe(title.replace('%s', 'mongodb'), () => block('mongodb'));
  else describe.skip(title.replace('%s', `mongodb ${MONGODB_SKIP_MARK}`), () => block('mongodb'));
}

/**
 * describeEachStore on PGlite and PostgreSQL whatever TEST_STORE_MATRIX says, for the suites whose
 * evidence is a client driving the service in both modes (they start PGlite without Redis, as the
 * embedded mode runs, and PostgreSQL with it).
 */
export function describeEachMode(title: string, block: (store: StoreUnderTest) => void): void {
  describeEachStore(title, block, ['pglite', 'postgres']);
}
