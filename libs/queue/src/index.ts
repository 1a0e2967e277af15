export * from './queue.module';
export * from './retry-policy';
export * from './bull/bull-job-queue';
export * from './embedded/embedded-job-queue';
