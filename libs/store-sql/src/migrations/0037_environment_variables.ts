import type { Migration } from './migration';

/**
 * Environment variables: one row per (organization, key), its value of each environment in
 * `environment_values` (environment id → the value encrypted), so a rename or a merge of values is
 * one statement. A new, empty table: its index builds inside the transaction.
 */
export const environmentVariablesMigration: Migration = {
  version: 37,
  name: 'environment_variables',
  sql: `
CREATE TABLE environment_variables (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  key text NOT NULL,
  type text NOT NULL,
  is_secret boolean NOT NULL,
  environment_values jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (organization_id, key)
);
`,
};
