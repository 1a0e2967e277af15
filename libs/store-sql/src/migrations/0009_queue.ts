import type { Migration } from './migration';

// The embedded job queue (one-process mode, no Redis). `state` is pending|active|completed|failed;
// a pending job whose run_at is in the future is "delayed". An active job is leased until
// locked_until: when its process dies, the lease runs out and the job is claimed again.
export const queueMigration: Migration = {
  version: 9,
  name: 'queue',
  sql: `
CREATE TABLE queue_jobs (
  queue text NOT NULL,
  id text NOT NULL,
  seq bigserial NOT NULL,
  data jsonb NOT NULL,
  state text NOT NULL DEFAULT 'pending',
  run_at timestamptz NOT NULL,
  attempts integer NOT NULL,
  attempts_made integer NOT NULL DEFAULT 0,
  stalled_count integer NOT NULL DEFAULT 0,
  backoff_ms integer NOT NULL DEFAULT 0,
  locked_by text,
  locked_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  PRIMARY KEY (queue, id)
);
CREATE INDEX queue_jobs_due ON queue_jobs (queue, run_at, seq) WHERE state = 'pending';
CREATE INDEX queue_jobs_leases ON queue_jobs (queue, locked_until) WHERE state = 'active';
CREATE INDEX queue_jobs_finished ON queue_jobs (queue, state, finished_at) WHERE state IN ('completed', 'failed');
`,
};
