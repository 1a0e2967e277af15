import type { Migration } from './migration';

/** Novu's v1 switch of a whole workflow (or, globally, of every workflow) for a subscriber; NULL: never set. */
export const preferenceEnabledMigration: Migration = {
  version: 22,
  name: 'preference_enabled',
  sql: `ALTER TABLE subscriber_preferences ADD COLUMN enabled boolean;`,
};
