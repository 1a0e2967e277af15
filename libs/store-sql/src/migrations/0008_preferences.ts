import type { Migration } from './migration';

export const preferencesMigration: Migration = {
  version: 8,
  name: 'preferences',
  sql: `
-- One row per subscriber and workflow they changed, plus one global row (workflow_id = '').
CREATE TABLE subscriber_preferences (
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  subscriber_id text NOT NULL,
  workflow_id text NOT NULL,
  channels jsonb NOT NULL,
  schedule jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (environment_id, subscriber_id, workflow_id)
);
`,
};
