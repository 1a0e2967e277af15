import type { Migration } from './migration';

/**
 * Throttle windows: one row per (environment, key) holding the window a throttle step counts runs
 * in and the jobs it admitted. Admitting is one upsert that locks the row, so concurrent runs
 * serialize on it. A new, empty table: its index builds inside the transaction.
 */
export const throttleWindowsMigration: Migration = {
  version: 33,
  name: 'throttle_windows',
  sql: `
CREATE TABLE throttle_windows (
  environment_id text NOT NULL,
  throttle_key text NOT NULL,
  opened_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  job_ids text[] NOT NULL,
  PRIMARY KEY (environment_id, throttle_key)
);
CREATE INDEX throttle_windows_ends ON throttle_windows (ends_at);
`,
};
