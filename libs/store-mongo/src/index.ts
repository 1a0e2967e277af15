export * from './mongo-store';
export * from './mongo-indexes';
export * from './mongo-health.probe';
export * from './mongo-repositories';
export * from './store-mongo.module';
export { mongoIdempotencyStore } from './environments/mongo-idempotency.store';
