import type { Migration } from './migration';

/**
 * Fewer index entries per delivery (an in-app delivery wrote seventeen, now thirteen):
 * - notifications and messages lose their global created_at indexes: retention finds the oldest rows
 *   through the per-environment (environment_id, created_at) ones, an environment at a time.
 * - jobs_parent holds only jobs that have a parent (every lookup is `parent_id = …`), so a chain's
 *   first job, most jobs, adds no entry.
 * - cancel by transactionId reads only cancelable jobs: its index holds only them, so a job leaves it
 *   when it runs and a completed job never enters it.
 */
export const deliveryIndexEntriesMigration: Migration = {
  version: 25,
  name: 'delivery_index_entries',
  sql: `
DROP INDEX IF EXISTS notifications_created;
DROP INDEX IF EXISTS messages_created;
DROP INDEX IF EXISTS jobs_parent;
CREATE INDEX jobs_parent ON jobs (parent_id) WHERE parent_id IS NOT NULL;
DROP INDEX IF EXISTS jobs_env_transaction_status;
CREATE INDEX jobs_env_transaction_cancelable ON jobs (environment_id, transaction_id) WHERE status IN ('pending', 'queued', 'delayed');
`,
};
