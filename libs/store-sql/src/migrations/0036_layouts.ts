import type { Migration } from './migration';

/**
 * Email layouts (Novu v2), one per (environment, layout_id). The environment's default is the row
 * with the latest default_since (ties: the greater id), so making one the default writes that row.
 */
export const layoutsMigration: Migration = {
  version: 36,
  name: 'layouts',
  sql: `
CREATE TABLE layouts (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  layout_id text NOT NULL,
  name text NOT NULL,
  is_translation_enabled boolean NOT NULL,
  control_values jsonb,
  default_since timestamptz,
  creator_id text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (environment_id, layout_id)
);
CREATE INDEX layouts_environment_created ON layouts (environment_id, created_at, id);
CREATE INDEX layouts_environment_default ON layouts (environment_id, default_since DESC, id DESC) WHERE default_since IS NOT NULL;
`,
};
