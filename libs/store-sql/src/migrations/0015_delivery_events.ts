import type { Migration } from './migration';

/**
 * Vendor delivery events in: the message's latest reported state, a lookup of messages by the
 * provider's id (events name the message that way), the events applied (unique per integration and
 * vendor event, so a replay records nothing), and the environment's suppressed addresses.
 */
export const deliveryEventsMigration: Migration = {
  version: 15,
  name: 'delivery_events',
  sql: `
ALTER TABLE messages ADD COLUMN delivery_state text;
ALTER TABLE messages ADD COLUMN delivery_state_at timestamptz;
CREATE INDEX messages_provider_identifier ON messages (environment_id, provider_id, identifier) WHERE identifier IS NOT NULL;

CREATE TABLE delivery_events (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  integration_id text NOT NULL,
  event_key text NOT NULL,
  message_id text NOT NULL,
  type text NOT NULL,
  occurred_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (integration_id, event_key)
);
CREATE INDEX delivery_events_message ON delivery_events (message_id);
CREATE INDEX delivery_events_created ON delivery_events (created_at);

CREATE TABLE suppressions (
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  address text NOT NULL,
  channel text NOT NULL,
  reason text NOT NULL,
  provider_id text NOT NULL,
  message_id text NOT NULL,
  detail text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (environment_id, address)
);
CREATE INDEX suppressions_newest ON suppressions (environment_id, created_at DESC, address);
`,
};
