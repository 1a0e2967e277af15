import type { Migration } from './migration';

/** Lets the step recovery find jobs that stopped moving without scanning finished ones. */
export const jobRecoveryMigration: Migration = {
  version: 10,
  name: 'job_recovery',
  sql: `
CREATE INDEX jobs_waiting_updated ON jobs (updated_at) WHERE status IN ('queued', 'running');
CREATE INDEX jobs_delayed_run_at ON jobs (run_at) WHERE status = 'delayed';
`,
};
