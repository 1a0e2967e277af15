import { MESSAGES_NOT_IN_APP_SQL } from '../delivery/sql-message.repository';
import type { Migration } from './migration';

/**
 * One index entry fewer per in-app delivery (ten, now nine): a subscriber's in-app messages were in both
 * messages_env_subscriber and messages_inbox. messages_env_subscriber_not_in_app holds only the other
 * channels'; a list of one subscriber's messages of every channel reads both indexes in order and merges
 * them (SqlMessageRepository.list). Built before the old index goes, concurrently: writes go on meanwhile.
 */
export const messageSubscriberIndexMigration: Migration = {
  version: 30,
  name: 'message_subscriber_index',
  online: [
    'DROP INDEX CONCURRENTLY IF EXISTS messages_env_subscriber_not_in_app',
    `CREATE INDEX CONCURRENTLY messages_env_subscriber_not_in_app ON messages (environment_id, subscriber_id, created_at DESC, id DESC) WHERE ${MESSAGES_NOT_IN_APP_SQL}`,
    'DROP INDEX CONCURRENTLY IF EXISTS messages_env_subscriber',
  ],
  sql: '',
};
