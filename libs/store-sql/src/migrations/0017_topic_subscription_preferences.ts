import type { Migration } from './migration';

// Novu's subscription name and per-workflow subscription preferences; the subscriber's own list of
// subscriptions is a cursor list by subscriber.
export const topicSubscriptionPreferencesMigration: Migration = {
  version: 17,
  name: 'topic_subscription_preferences',
  sql: `
ALTER TABLE topic_subscriptions ADD COLUMN name text;
ALTER TABLE topic_subscriptions ADD COLUMN preferences jsonb;
CREATE INDEX topic_subscriptions_subscriber_id ON topic_subscriptions (environment_id, subscriber_id, id);
`,
};
