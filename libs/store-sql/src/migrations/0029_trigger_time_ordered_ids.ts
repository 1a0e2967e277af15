import type { Migration } from './migration';

/**
 * A trigger accepted from now on gives its notifications and jobs ids that start with its acceptance
 * second. Rows written before (and by an api not yet upgraded) stay null: their fan-out keeps the
 * hash-only ids it may have begun with.
 */
export const triggerTimeOrderedIdsMigration: Migration = {
  version: 29,
  name: 'trigger_time_ordered_ids',
  sql: `ALTER TABLE triggers ADD COLUMN time_ordered_ids boolean;`,
};
