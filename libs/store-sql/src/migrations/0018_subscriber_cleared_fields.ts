import type { Migration } from './migration';

// Profile fields a caller set to null: Novu answers them as null, and a field never set as absent.
export const subscriberClearedFieldsMigration: Migration = {
  version: 18,
  name: 'subscriber_cleared_fields',
  sql: `ALTER TABLE subscribers ADD COLUMN cleared_fields text[] NOT NULL DEFAULT '{}';`,
};
