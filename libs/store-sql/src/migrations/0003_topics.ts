import type { Migration } from './migration';

export const topicsMigration: Migration = {
  version: 3,
  name: 'topics',
  sql: `
CREATE TABLE topics (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  key text NOT NULL,
  name text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (environment_id, key)
);
CREATE INDEX topics_env_id ON topics (environment_id, id);
CREATE INDEX topics_env_created ON topics (environment_id, created_at, id);
CREATE INDEX topics_env_updated ON topics (environment_id, updated_at, id);

-- No foreign keys: memberships are removed explicitly with their topic or subscriber, as the
-- MongoDB adapter must do too, and a concurrent delete never turns an insert into an error.
CREATE TABLE topic_subscriptions (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  topic_id text NOT NULL,
  topic_key text NOT NULL,
  subscriber_internal_id text NOT NULL,
  subscriber_id text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (topic_id, subscriber_id)
);
CREATE INDEX topic_subscriptions_topic_id ON topic_subscriptions (topic_id, id);
CREATE INDEX topic_subscriptions_topic_created ON topic_subscriptions (topic_id, created_at, id);
CREATE INDEX topic_subscriptions_topic_updated ON topic_subscriptions (topic_id, updated_at, id);
CREATE INDEX topic_subscriptions_subscriber ON topic_subscriptions (environment_id, subscriber_id);
`,
};
