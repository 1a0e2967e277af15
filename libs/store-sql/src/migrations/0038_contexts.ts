import type { Migration } from './migration';

/**
 * Contexts (Novu v2): one row per (environment, type, identifier). A trigger's contexts are recorded
 * by key (`type:id`, sorted) on the trigger, its notifications and their jobs; the columns are NULL
 * for the many triggers without a context. New columns without a default: no table rewrite.
 */
export const contextsMigration: Migration = {
  version: 38,
  name: 'contexts',
  sql: `
CREATE TABLE contexts (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  type text NOT NULL,
  identifier text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (environment_id, type, identifier)
);
CREATE INDEX contexts_environment_created ON contexts (environment_id, created_at, id);
ALTER TABLE triggers ADD COLUMN context_keys jsonb;
ALTER TABLE notifications ADD COLUMN context_keys jsonb;
ALTER TABLE jobs ADD COLUMN context_keys jsonb;
`,
};
