import type { Migration } from './migration';

/** What a step hands the steps after it (an HTTP request step's answer), read by them as `steps.<stepId>`. */
export const jobOutputMigration: Migration = {
  version: 34,
  name: 'job_output',
  sql: `ALTER TABLE jobs ADD COLUMN output jsonb;`,
};
