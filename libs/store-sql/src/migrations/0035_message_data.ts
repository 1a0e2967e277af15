import type { Migration } from './migration';

/** A v2 in-app step's `data` (its string values rendered): what the Inbox shows as the notification's data. */
export const messageDataMigration: Migration = {
  version: 35,
  name: 'message_data',
  sql: `ALTER TABLE messages ADD COLUMN data jsonb;`,
};
