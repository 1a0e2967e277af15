import type { Migration } from './migration';

export const workflowsMigration: Migration = {
  version: 6,
  name: 'workflows',
  sql: `
CREATE TABLE workflows (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  trigger_identifier text NOT NULL,
  name text NOT NULL,
  active boolean NOT NULL,
  critical boolean NOT NULL,
  revision integer NOT NULL,
  -- steps, preference settings, tags, data…: always read and written whole
  document jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz,
  deleted_by text
);
-- The trigger hot path, and uniqueness of live identifiers (a deleted workflow frees its identifier).
CREATE UNIQUE INDEX workflows_live_trigger_identifier ON workflows (environment_id, trigger_identifier) WHERE deleted_at IS NULL;
CREATE INDEX workflows_live_by_creation ON workflows (environment_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
`,
};
