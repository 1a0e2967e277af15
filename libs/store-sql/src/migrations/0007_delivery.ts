import type { Migration } from './migration';

// The delivery engine's records. Ids of notifications, jobs and messages are deterministic, so
// every insert is ON CONFLICT DO NOTHING and a redelivered queue job writes nothing twice.
export const deliveryMigration: Migration = {
  version: 7,
  name: 'delivery',
  sql: `
CREATE TABLE triggers (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  transaction_id text NOT NULL,
  workflow_id text NOT NULL,
  workflow_identifier text NOT NULL,
  recipients jsonb NOT NULL,
  payload jsonb NOT NULL,
  overrides jsonb NOT NULL,
  actor jsonb,
  tenant jsonb,
  status text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (environment_id, transaction_id)
);
-- The reconciler's scan: accepted triggers that never reached the queue, oldest first.
CREATE INDEX triggers_accepted ON triggers (status, created_at) WHERE status = 'accepted';

CREATE TABLE notifications (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  workflow_id text NOT NULL,
  workflow_identifier text NOT NULL,
  subscriber_id text NOT NULL,
  external_subscriber_id text NOT NULL,
  transaction_id text NOT NULL,
  recipient jsonb NOT NULL,
  payload jsonb NOT NULL,
  controls jsonb,
  channels jsonb NOT NULL,
  tags jsonb NOT NULL,
  severity text,
  critical boolean NOT NULL,
  topics jsonb NOT NULL,
  tenant_identifier text,
  actor_subscriber_id text,
  digested_notification_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX notifications_env_created ON notifications (environment_id, created_at DESC, id DESC);
CREATE INDEX notifications_env_transaction ON notifications (environment_id, transaction_id);
CREATE INDEX notifications_env_subscriber ON notifications (environment_id, subscriber_id, created_at DESC);

CREATE TABLE jobs (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  notification_id text NOT NULL,
  transaction_id text NOT NULL,
  subscriber_id text NOT NULL,
  external_subscriber_id text NOT NULL,
  workflow_id text NOT NULL,
  workflow_identifier text NOT NULL,
  step_id text NOT NULL,
  parent_id text,
  type text NOT NULL,
  status text NOT NULL,
  provider_id text,
  payload jsonb NOT NULL,
  overrides jsonb NOT NULL,
  tenant jsonb,
  actor_id text,
  digest jsonb,
  digest_bucket_key text,
  merged_digest_id text,
  run_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  schedule_extensions_count integer,
  error jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX jobs_notification ON jobs (notification_id);
CREATE INDEX jobs_env_transaction_status ON jobs (environment_id, transaction_id, status);
CREATE INDEX jobs_parent ON jobs (parent_id);

CREATE TABLE execution_details (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  notification_id text NOT NULL,
  job_id text NOT NULL,
  subscriber_id text NOT NULL,
  transaction_id text NOT NULL,
  channel text,
  provider_id text,
  status text NOT NULL,
  source text NOT NULL,
  detail text NOT NULL,
  raw text,
  is_retry boolean NOT NULL,
  is_test boolean NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX execution_details_job ON execution_details (job_id, created_at, id);

CREATE TABLE messages (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  notification_id text NOT NULL,
  job_id text NOT NULL,
  subscriber_id text NOT NULL,
  workflow_id text NOT NULL,
  template_identifier text NOT NULL,
  step_id text,
  transaction_id text NOT NULL,
  channel text NOT NULL,
  provider_id text,
  status text NOT NULL,
  error_id text,
  error_text text,
  content jsonb NOT NULL,
  subject text,
  title text,
  cta jsonb,
  avatar text,
  actor_subscriber_id text,
  read boolean NOT NULL DEFAULT false,
  seen boolean NOT NULL DEFAULT false,
  archived boolean NOT NULL DEFAULT false,
  last_seen_date timestamptz,
  last_read_date timestamptz,
  snoozed_until timestamptz,
  delivered_at jsonb NOT NULL DEFAULT '[]'::jsonb,
  identifier text,
  email text,
  phone text,
  device_tokens jsonb,
  direct_webhook_url text,
  payload jsonb NOT NULL,
  overrides jsonb NOT NULL,
  tags jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX messages_env_created ON messages (environment_id, created_at DESC, id DESC);
CREATE INDEX messages_env_transaction ON messages (environment_id, transaction_id);
CREATE INDEX messages_env_subscriber ON messages (environment_id, subscriber_id, created_at DESC);
CREATE INDEX messages_job ON messages (job_id);

-- One row per digest bucket: open while a master job waits to fire and collects events, closed
-- after it fired; reopening bumps the generation. last_event_at serves backoff digests.
CREATE TABLE digest_buckets (
  environment_id text NOT NULL,
  bucket_key text NOT NULL,
  status text NOT NULL,
  generation integer NOT NULL DEFAULT 0,
  master_job_id text,
  master_notification_id text,
  events jsonb NOT NULL DEFAULT '[]'::jsonb,
  fire_at timestamptz,
  last_event_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, bucket_key)
);
`,
};
