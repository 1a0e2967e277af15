import type { Migration } from './migration';

/**
 * One index entry fewer per in-app delivery (eleven, now ten): messages_job_not_own holds only the
 * messages whose id is not their job's (it replaces messages_job). An in-app, SMS or email step's message
 * takes its job's id, so findByJobId finds it by primary key; a chat or push step's messages (one per
 * target) keep an entry. The new index is built before the old one goes, concurrently: writes to
 * messages go on meanwhile.
 */
export const messageIndexEntriesMigration: Migration = {
  version: 28,
  name: 'message_index_entries',
  online: [
    'DROP INDEX CONCURRENTLY IF EXISTS messages_job_not_own',
    'CREATE INDEX CONCURRENTLY messages_job_not_own ON messages (job_id) WHERE job_id <> id',
    'DROP INDEX CONCURRENTLY IF EXISTS messages_job',
  ],
  sql: '',
};
