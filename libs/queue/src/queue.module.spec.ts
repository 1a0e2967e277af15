import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { JOB_QUEUE } from '@app/kernel';
import { SQL_CLIENT, createSqlClient } from '@app/store-sql';
import { BullJobQueue } from './bull/bull-job-queue';
import { EmbeddedJobQueue } from './embedded/embedded-job-queue';
import { QueueModule } from './queue.module';

describe('QueueModule.forRoot', () => {
  it('binds the embedded queue on the SQL store when no Redis URL is given', async () => {
    const sql = await createSqlClient({});
    @Global()
    @Module({ providers: [{ provide: SQL_CLIENT, useValue: sql }], exports: [SQL_CLIENT] })
    class FakeStoreModule {}
    const moduleRef = await Test.createTestingModule({ imports: [FakeStoreModule, QueueModule.forRoot({})] }).compile();
    expect(moduleRef.get(JOB_QUEUE)).toBeInstanceOf(EmbeddedJobQueue);
    await moduleRef.close();
    await sql.close();
  });

  it('binds Bull when a Redis URL is given', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [QueueModule.forRoot({ redisUrl: 'redis://127.0.0.1:6379', prefix: 'module-spec' })] }).compile();
    expect(moduleRef.get(JOB_QUEUE)).toBeInstanceOf(BullJobQueue);
    await moduleRef.close();
  });
});
