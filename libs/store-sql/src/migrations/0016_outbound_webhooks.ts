import type { Migration } from './migration';

// Outbound webhooks: endpoints (secrets as AES-256-GCM ciphertext of their JSON, never plain text),
// the outbox (one row per event and endpoint, its id the webhook-id) and the attempts log.
export const outboundWebhooksMigration: Migration = {
  version: 16,
  name: 'outbound_webhooks',
  sql: `
CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  kind text NOT NULL,
  url text NOT NULL,
  description text,
  event_types jsonb,
  disabled boolean NOT NULL DEFAULT false,
  disabled_reason text,
  secrets text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_environment ON webhook_endpoints (environment_id, created_at, id);
CREATE UNIQUE INDEX webhook_endpoints_one_reply_callback ON webhook_endpoints (environment_id) WHERE kind = 'reply_callback';

CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  endpoint_id text NOT NULL,
  event_type text NOT NULL,
  body text NOT NULL,
  url text,
  status text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';

CREATE TABLE webhook_attempts (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  endpoint_id text NOT NULL,
  delivery_id text NOT NULL,
  event_type text NOT NULL,
  attempt integer NOT NULL,
  status_code integer,
  latency_ms integer,
  success boolean NOT NULL,
  error text,
  response_excerpt text,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, created_at DESC, id DESC);
`,
};
