import type { Migration } from './migration';

/**
 * The execution details a job is written with (a step run before its chain was written: an in-app
 * delivery's "Message sent") are kept on the job row, as a JSON array of the fields that are not
 * the job's own, rather than as rows of execution_details: one row and three index entries fewer
 * per delivery. Details added later still go to execution_details; reads take both. NULL: none.
 */
export const jobDetailsMigration: Migration = {
  version: 23,
  name: 'job_details',
  sql: `ALTER TABLE jobs ADD COLUMN details jsonb;`,
};
