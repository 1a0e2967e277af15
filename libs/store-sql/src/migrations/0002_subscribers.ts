import type { Migration } from './migration';

export const subscribersMigration: Migration = {
  version: 2,
  name: 'subscribers',
  sql: `
CREATE TABLE subscribers (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  subscriber_id text NOT NULL,
  first_name text,
  last_name text,
  email text,
  phone text,
  avatar text,
  locale text,
  timezone text,
  data jsonb,
  channels jsonb NOT NULL DEFAULT '[]'::jsonb,
  is_online boolean,
  last_online_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (environment_id, subscriber_id)
);
-- Cursor lists sort by (orderBy, id) within one environment.
CREATE INDEX subscribers_env_id ON subscribers (environment_id, id);
CREATE INDEX subscribers_env_created ON subscribers (environment_id, created_at, id);
CREATE INDEX subscribers_env_updated ON subscribers (environment_id, updated_at, id);
`,
};
