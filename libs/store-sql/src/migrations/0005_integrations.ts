import type { Migration } from './migration';

// credentials holds the AES-256-GCM ciphertext of the credentials' JSON, never plain text.
// Uniqueness lives in partial indexes so a soft-deleted integration frees its identifier.
export const integrationsMigration: Migration = {
  version: 5,
  name: 'integrations',
  sql: `
CREATE TABLE integrations (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  name text NOT NULL,
  identifier text NOT NULL,
  provider_id text NOT NULL,
  channel text NOT NULL,
  credentials text NOT NULL,
  configurations jsonb NOT NULL DEFAULT '{}'::jsonb,
  active boolean NOT NULL,
  is_primary boolean NOT NULL DEFAULT false,
  priority integer NOT NULL DEFAULT 0,
  conditions jsonb NOT NULL DEFAULT '[]'::jsonb,
  deleted boolean NOT NULL DEFAULT false,
  deleted_at timestamptz,
  deleted_by text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX integrations_identifier_unique ON integrations (environment_id, identifier) WHERE NOT deleted;
CREATE UNIQUE INDEX integrations_one_novu_in_app ON integrations (environment_id) WHERE provider_id = 'novu' AND channel = 'in_app' AND NOT deleted;
CREATE INDEX integrations_environment_created ON integrations (environment_id, created_at, id) WHERE NOT deleted;
CREATE INDEX integrations_organization_active ON integrations (organization_id, created_at, id) WHERE active AND NOT deleted;
`,
};
