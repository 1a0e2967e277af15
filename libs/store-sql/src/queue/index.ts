import { Provider } from '@nestjs/common';
import { QUEUE_JOB_STORE } from '@app/kernel';
import { SqlQueueJobStore } from './sql-queue-job.store';

export { SqlQueueJobStore } from './sql-queue-job.store';
export const sqlQueueProviders: Provider[] = [{ provide: QUEUE_JOB_STORE, useClass: SqlQueueJobStore }];
