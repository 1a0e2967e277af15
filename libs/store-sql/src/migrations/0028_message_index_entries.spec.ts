import { MESSAGES_NOT_BY_JOB_ID_SQL } from '../delivery/sql-message.repository';
import { messageIndexEntriesMigration } from './0028_message_index_entries';

describe('migration 28', () => {
  it('gives messages_job_not_own the predicate findByJobId states, so the planner can use it', () => {
    expect(messageIndexEntriesMigration.online).toContain(
      `CREATE INDEX CONCURRENTLY messages_job_not_own ON messages (job_id) WHERE ${MESSAGES_NOT_BY_JOB_ID_SQL}`,
    );
  });
});
