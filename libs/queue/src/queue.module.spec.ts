import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { JOB_QUEUE, QUEUE_JOB_STORE } from '@app/kernel';
import { SqlQueueJobStore, createSqlClient } from '@app/store-sql';
import { BullJobQueue } from './bull/bull-job-queue';
import { EmbeddedJobQueue } from './embedded/embedded-job-queue';
import { QueueModule } from './queue.module';

describe('QueueModule.forRoot', () => {
  it("binds the embedded queue on the store's job store when no Redis URL is given", async () => {
    const sql = await createSqlClient({});
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
});
