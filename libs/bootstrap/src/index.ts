export * from './core.module';
export * from './redis.tokens';
export * from './logging';
export * from './delivery-worker.module';
export * from './retention.scheduler';
export * from './delivery.processor';
export * from './inbox-realtime.module';
export * from './async-resource-bind';
