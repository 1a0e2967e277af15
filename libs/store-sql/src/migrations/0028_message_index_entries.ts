import type { Migration } from './migration';

/**
 * One index entry fewer per in-app delivery (eleven, now ten): messages_job_not_own holds only the
 * messages whose id is not their job's (it replaces messages_job). An in-app step's message takes its
 * job's id (so does the warning message of an email or SMS step with no address), so findByJobId finds
 * it by primary key; a message sent through a provider (one per target) keeps an entry. The new index is
 * built before the old one goes, concurrently: writes to messages go on meanwhile.
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
