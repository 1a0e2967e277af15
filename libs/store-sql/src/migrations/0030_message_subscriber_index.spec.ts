import { MESSAGES_NOT_IN_APP_SQL } from '../delivery/sql-message.repository';
import { messageSubscriberIndexMigration } from './0030_message_subscriber_index';

describe('migration 30', () => {
  it('gives messages_env_subscriber_not_in_app the predicate the message list states, so the planner can use it', () => {
    expect(messageSubscriberIndexMigration.online).toContain(
      `CREATE INDEX CONCURRENTLY messages_env_subscriber_not_in_app ON messages (environment_id, subscriber_id, created_at DESC, id DESC) WHERE ${MESSAGES_NOT_IN_APP_SQL}`,
    );
  });
});
