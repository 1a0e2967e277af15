export * from './redis-idempotency.store';
