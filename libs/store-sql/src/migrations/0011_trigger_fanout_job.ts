import type { Migration } from './migration';

/** Triggers accepted together share one fan-out queue job; the reconciler looks for it by this id. */
export const triggerFanOutJobMigration: Migration = {
  version: 11,
  name: 'trigger_fanout_job',
  sql: `ALTER TABLE triggers ADD COLUMN fanout_job_id text;`,
};
