export * from './redis-idempotency.store';
export * from './redis-rate-limit.store';
