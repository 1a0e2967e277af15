import { getQueueToken } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type Bull from 'bull';
import { JOB_QUEUE, QUEUE_JOB_STORE } from '@app/kernel';
import { SqlQueueJobStore, createSqlClient } from '@app/store-sql';
import { migratedPgliteDir } from '../../../test/support/pglite-template';
import { BullJobQueue } from './bull/bull-job-queue';
import { EmbeddedJobQueue } from './embedded/embedded-job-queue';
import { QueueModule } from './queue.module';

describe('QueueModule.forRoot', () => {
  it("binds the embedded queue on the store's job store when no Redis URL is given", async () => {
    const sql = await createSqlClient({ dataDir: await migratedPgliteDir() });
    @Global()
    @Module({ providers: [{ provide: QUEUE_JOB_STORE, useValue: new SqlQueueJobStore(sql) }], exports: [QUEUE_JOB_STORE] })
    class FakeStoreModule {}
    const moduleRef = await Test.createTestingModule({ imports: [FakeStoreModule, QueueModule.forRoot({})] }).compile();
    expect(moduleRef.get(JOB_QUEUE)).toBeInstanceOf(EmbeddedJobQueue);
    await moduleRef.close();
    await sql.close();
  });

  it('binds Bull when a Redis URL is given', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [QueueModule.forRoot({ redisUrl: 'redis://127.0.0.1:6379', prefix: 'module-spec' })],
    }).compile();
    expect(moduleRef.get(JOB_QUEUE)).toBeInstanceOf(BullJobQueue);
    await moduleRef.close();
  });

  it('gives every Bull queue the lock and stalled check it is given (QUEUE_LOCK_SECONDS), renewing the lock at half of it', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        QueueModule.forRoot({
          redisUrl: 'redis://127.0.0.1:6379',
          prefix: 'module-spec',
          queueNames: ['locked'],
          bull: { lockDurationMs: 4_000, stalledIntervalMs: 2_000 },
        }),
      ],
    }).compile();
    // settings is Bull's own (not in its types)
    const registered = moduleRef.get<Bull.Queue & { settings: Bull.AdvancedSettings }>(getQueueToken('locked'));
    expect(registered.settings).toMatchObject({ lockDuration: 4_000, lockRenewTime: 2_000, stalledInterval: 2_000 });
    await moduleRef.close();
  });

  it("bounds the commands of Bull's adding connection with commandTimeoutMs, never the blocking consumer's, and closes them", async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [QueueModule.forRoot({ redisUrl: 'redis://127.0.0.1:6379', prefix: 'module-spec', queueNames: ['bounded'], commandTimeoutMs: 1_500 })],
    }).compile();
    await moduleRef.init();
    // bclient is Bull's own (not in its types): the connection a consumer blocks on
    const queue = moduleRef.get<Bull.Queue & { bclient: Bull.Queue['client'] }>(getQueueToken('bounded'));
    const [client, bclient] = [queue.client, queue.bclient];
    expect(client.options).toMatchObject({ commandTimeout: 1_500, port: 6379, host: '127.0.0.1' });
    expect(bclient.options).toMatchObject({ maxRetriesPerRequest: null, port: 6379 });
    expect(bclient.options.commandTimeout).toBeUndefined();
    await Promise.all([client.ping(), bclient.ping()]);
    const ended = Promise.all([client, bclient].map((connection) => new Promise((resolve) => connection.once('end', resolve))));
    await moduleRef.close();
    await ended;
  });
});
