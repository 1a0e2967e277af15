import { Test } from '@nestjs/testing';
import { loadConfig } from '@app/config';
import { MONGO_STORE, MongoStore } from '@app/store-mongo';
import { AppModule } from '../../apps/api/src/app.module';
import { CliModule } from '../../apps/cli/src/cli.module';
import { WorkerModule } from '../../apps/worker/src/worker.module';

/**
 * With DATABASE_URL=mongodb://… every process (the embedded `start`, `start:api`, `start:worker`,
 * the CLI) finds an adapter for each port it injects. No MongoDB runs here, so the store itself is
 * a stand-in that is never called: compiling a module builds its providers without any I/O. What
 * the adapters do against a server is the contract suites' business (MONGODB_URL).
 */
const unusedStore: MongoStore = {
  collection: () => {
    throw new Error('no MongoDB here');
  },
  transaction: () => Promise.reject(new Error('no MongoDB here')),
  ping: () => Promise.reject(new Error('no MongoDB here')),
  close: async () => undefined,
};

const env = { STORE_ENCRYPTION_KEY: 'a'.repeat(64), DATABASE_URL: 'mongodb://127.0.0.1:27017/notify?replicaSet=rs0', LOG_LEVEL: 'silent' };

async function compiles(module: Parameters<typeof Test.createTestingModule>[0]['imports']) {
  const ref = await Test.createTestingModule({ imports: module }).overrideProvider(MONGO_STORE).useValue(unusedStore).compile();
  await ref.close();
}

describe('processes wired on the MongoDB store', () => {
  it('the embedded mode (api and worker in one process, queue and idempotency in the store)', async () => {
    await compiles([AppModule.forRoot({ config: loadConfig(env, false), runWorker: true })]);
  });

  it('start:api and start:worker (production mode, Redis)', async () => {
    const config = loadConfig({ ...env, REDIS_URL: 'redis://127.0.0.1:6379' }, false);
    await compiles([AppModule.forRoot({ config, runWorker: false })]);
    await compiles([WorkerModule.forRoot({ config })]);
  });

  it('the CLI', async () => {
    await compiles([CliModule.forRoot(loadConfig(env, false))]);
  });
});
