export * from './redis-idempotency.store';
export * from './redis-rate-limit.store';
export * from './redis-health.probe';
export * from './flexible-vendor-pace';
