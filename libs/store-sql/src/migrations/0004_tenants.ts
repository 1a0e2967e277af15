import type { Migration } from './migration';

export const tenantsMigration: Migration = {
  version: 4,
  name: 'tenants',
  sql: `
CREATE TABLE tenants (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  identifier text NOT NULL,
  name text,
  data jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (environment_id, identifier)
);
CREATE INDEX tenants_environment_created ON tenants (environment_id, created_at, id);
`,
};
