import type { Migration } from './migration';

// Per-integration vendor limits: calls per second (with a burst) and calls in flight; NULL takes the provider's default.
export const integrationDeliveryLimitsMigration: Migration = {
  version: 40,
  name: 'integration_delivery_limits',
  sql: `ALTER TABLE integrations ADD COLUMN rate_limit jsonb, ADD COLUMN max_concurrency integer;`,
};
