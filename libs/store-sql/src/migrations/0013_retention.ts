import type { Migration } from './migration';

/** Retention deletes the oldest delivery records first, a bounded batch at a time: these find them without a scan. */
export const retentionMigration: Migration = {
  version: 13,
  name: 'retention',
  sql: `
CREATE INDEX triggers_created ON triggers (created_at);
CREATE INDEX notifications_created ON notifications (created_at);
CREATE INDEX jobs_created ON jobs (created_at);
CREATE INDEX execution_details_created ON execution_details (created_at);
CREATE INDEX messages_created ON messages (created_at);
`,
};
