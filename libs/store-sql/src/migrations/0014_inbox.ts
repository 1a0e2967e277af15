import type { Migration } from './migration';

/**
 * The Inbox: each environment gets the public identifier Novu's Inbox clients send
 * (applicationIdentifier) and an HMAC switch (on, except in Development, as Novu); an API key keeps
 * a sealed copy of its secret (AES-GCM under STORE_ENCRYPTION_KEY) so a subscriberHash can be
 * checked (keys made before this migration have none); a message remembers when it was archived
 * and first seen, and a subscriber's feed is read by subscriber, newest first.
 */
export const inboxMigration: Migration = {
  version: 14,
  name: 'inbox',
  sql: `
ALTER TABLE environments ADD COLUMN identifier text;
UPDATE environments SET identifier = substr(md5(id || random()::text), 1, 12) WHERE identifier IS NULL;
ALTER TABLE environments ALTER COLUMN identifier SET NOT NULL;
CREATE UNIQUE INDEX environments_identifier ON environments (identifier);
ALTER TABLE environments ADD COLUMN inbox_hmac boolean;
UPDATE environments SET inbox_hmac = (name <> 'Development');
ALTER TABLE environments ALTER COLUMN inbox_hmac SET NOT NULL;
ALTER TABLE api_keys ADD COLUMN secret_sealed text;
ALTER TABLE messages ADD COLUMN archived_at timestamptz;
ALTER TABLE messages ADD COLUMN first_seen_date timestamptz;
CREATE INDEX messages_inbox ON messages (environment_id, subscriber_id, created_at DESC, id DESC) WHERE channel = 'in_app';
CREATE INDEX messages_snoozed ON messages (snoozed_until) WHERE snoozed_until IS NOT NULL;
`,
};
