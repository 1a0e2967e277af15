import type { Migration } from './migration';

/**
 * A notification's first job, when it is written already finished (an in-app first step runs before its
 * chain is written), is kept on the notification's row (`first_job`: the job's own columns and the
 * details written with it, as a jobs row keeps them; the columns it shares with the notification are the
 * notification's) instead of as a row of jobs: one row and three index entries fewer per in-app delivery,
 * one entry added here so the job is still found by its id. A finished job never changes, so the row is
 * never updated for it; reads and retention take both places.
 */
export const firstJobOnNotificationMigration: Migration = {
  version: 27,
  name: 'first_job_on_notification',
  sql: `
ALTER TABLE notifications ADD COLUMN first_job jsonb;
CREATE INDEX notifications_first_job ON notifications ((first_job->>'id')) WHERE first_job IS NOT NULL;
`,
};
