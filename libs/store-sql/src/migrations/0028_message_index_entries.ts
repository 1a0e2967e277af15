import type { Migration } from './migration';

/**
 * Two index entries fewer per in-app delivery (eleven, now nine):
 * - messages_job_not_own holds only the messages whose id is not their job's (it replaces messages_job).
 *   An in-app, SMS or email step's message takes its job's id, so findByJobId finds it by primary key;
 *   a chat or push step's messages (one per target) keep an entry.
 * - messages_subscriber_channel replaces messages_env_subscriber (every channel) and messages_inbox
 *   (in-app only): the channel comes after the subscriber, so the inbox reads `channel = 'in_app'` in
 *   order as before, and a subscriber's messages of every channel sort that subscriber's rows only.
 * The new indexes are built before the old ones go, concurrently: writes to messages go on meanwhile.
 */
export const messageIndexEntriesMigration: Migration = {
  version: 28,
  name: 'message_index_entries',
  online: [
    'DROP INDEX CONCURRENTLY IF EXISTS messages_job_not_own',
    'CREATE INDEX CONCURRENTLY messages_job_not_own ON messages (job_id) WHERE job_id <> id',
    'DROP INDEX CONCURRENTLY IF EXISTS messages_subscriber_channel',
    'CREATE INDEX CONCURRENTLY messages_subscriber_channel ON messages (environment_id, subscriber_id, channel, created_at DESC, id DESC)',
    'DROP INDEX CONCURRENTLY IF EXISTS messages_job',
    'DROP INDEX CONCURRENTLY IF EXISTS messages_env_subscriber',
    'DROP INDEX CONCURRENTLY IF EXISTS messages_inbox',
  ],
  sql: '',
};
