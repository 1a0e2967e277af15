import type { Migration } from './migration';

/** A broadcast trigger (`POST /v1/events/trigger/bulk`'s sibling, `/broadcast`) goes to every subscriber of its environment. */
export const triggerBroadcastMigration: Migration = {
  version: 21,
  name: 'trigger_broadcast',
  sql: `ALTER TABLE triggers ADD COLUMN broadcast boolean;`,
};
