import type { Migration } from './migration';

export const environmentsMigration: Migration = {
  version: 1,
  name: 'environments',
  sql: `
CREATE TABLE system_claims (name text PRIMARY KEY, claimed_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE organizations (id text PRIMARY KEY, name text NOT NULL, created_at timestamptz NOT NULL);
CREATE TABLE environments (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id),
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (organization_id, name)
);
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL REFERENCES environments(id),
  key_hash text NOT NULL UNIQUE,
  key_hint text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX api_keys_environment ON api_keys (environment_id);
CREATE TABLE idempotency_keys (
  key text PRIMARY KEY,
  body_hash text NOT NULL,
  status_code integer,
  body jsonb,
  expires_at timestamptz NOT NULL
);
`,
};
