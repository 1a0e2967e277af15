import type { DeliveryEventRecord, ExecutionDetail, Job, Message, Notification, Suppression, TriggerRecord } from '@app/delivery';
import type { EnvironmentVariableType } from '@app/environments';
import type { Integration } from '@app/integrations';
import type { JobState } from '@app/kernel';
import type { Subscriber, SubscriberPreference, TopicSubscription } from '@app/subscribers';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '@app/webhooks';
import type { LayoutControlValues, Workflow } from '@app/workflows';
import type { TranslationContent, TranslationResourceType } from '@app/workflows';
import { Row, bigint, boolean, defaulted, integer, jsonb, nullable, table, text, textList, textListOf, textOf, timestamptz } from './sql-table';

/**
 * Every table of the schema as the migrations leave it, one definition each: the row types of the
 * repositories come from here, and sql-tables.contract.test holds these to the migrated catalogue.
 */

/** A field's type without undefined: what a column holds for it. */
type Of<T, K extends keyof T> = Exclude<T[K], undefined>;

export const schemaMigrations = table('schema_migrations', {
  version: integer,
  name: text,
  applied_at: defaulted(timestamptz),
});

export const systemClaims = table('system_claims', {
  name: text,
  claimed_at: defaulted(timestamptz),
});

export const organizations = table('organizations', {
  id: text,
  name: text,
  created_at: timestamptz,
});
export type OrganizationRow = Row<typeof organizations>;

export const environments = table('environments', {
  id: text,
  organization_id: text,
  name: text,
  created_at: timestamptz,
  identifier: text,
  inbox_hmac: boolean,
  color: nullable(text),
  parent_id: nullable(text),
});
export type EnvironmentRow = Row<typeof environments>;

export const apiKeys = table('api_keys', {
  id: text,
  organization_id: text,
  environment_id: text,
  key_hash: text,
  key_hint: text,
  created_at: timestamptz,
  secret_sealed: nullable(text),
});
export type ApiKeyRow = Row<typeof apiKeys>;

export const idempotencyKeys = table('idempotency_keys', {
  key: text,
  body_hash: text,
  status_code: nullable(integer),
  body: nullable(jsonb<unknown>()),
  expires_at: timestamptz,
});
export type IdempotencyKeyRow = Row<typeof idempotencyKeys>;

export const subscribers = table('subscribers', {
  id: text,
  organization_id: text,
  environment_id: text,
  subscriber_id: text,
  first_name: nullable(text),
  last_name: nullable(text),
  email: nullable(text),
  phone: nullable(text),
  avatar: nullable(text),
  locale: nullable(text),
  timezone: nullable(text),
  data: nullable(jsonb<Record<string, unknown>>()),
  channels: defaulted(jsonb<Subscriber['channels']>()),
  is_online: nullable(boolean),
  last_online_at: nullable(timestamptz),
  created_at: timestamptz,
  updated_at: timestamptz,
  cleared_fields: defaulted(textListOf<Of<Subscriber, 'cleared'>[number]>()),
});
export type SubscriberRow = Row<typeof subscribers>;

export const subscriberPreferences = table('subscriber_preferences', {
  organization_id: text,
  environment_id: text,
  subscriber_id: text,
  /** '' for the global record: a primary key holds no NULL. */
  workflow_id: text,
  channels: jsonb<SubscriberPreference['channels']>(),
  schedule: nullable(jsonb<Of<SubscriberPreference, 'schedule'>>()),
  created_at: timestamptz,
  updated_at: timestamptz,
  enabled: nullable(boolean),
});
export type SubscriberPreferenceRow = Row<typeof subscriberPreferences>;

export const topics = table('topics', {
  id: text,
  organization_id: text,
  environment_id: text,
  key: text,
  name: nullable(text),
  created_at: timestamptz,
  updated_at: timestamptz,
});
export type TopicRow = Row<typeof topics>;

export const topicSubscriptions = table('topic_subscriptions', {
  id: text,
  organization_id: text,
  environment_id: text,
  topic_id: text,
  topic_key: text,
  subscriber_internal_id: text,
  subscriber_id: text,
  created_at: timestamptz,
  updated_at: timestamptz,
  name: nullable(text),
  preferences: nullable(jsonb<Of<TopicSubscription, 'preferences'>>()),
});
export type TopicSubscriptionRow = Row<typeof topicSubscriptions>;

export const tenants = table('tenants', {
  id: text,
  organization_id: text,
  environment_id: text,
  identifier: text,
  name: nullable(text),
  data: nullable(jsonb<Record<string, unknown>>()),
  created_at: timestamptz,
  updated_at: timestamptz,
});
export type TenantRow = Row<typeof tenants>;

/** One per (environment, type, identifier) (migration 38). */
export const contexts = table('contexts', {
  id: text,
  organization_id: text,
  environment_id: text,
  type: text,
  identifier: text,
  data: jsonb<Record<string, unknown>>(),
  created_at: timestamptz,
  updated_at: timestamptz,
});
export type ContextRow = Row<typeof contexts>;

/** One per (organization, key); each environment's value encrypted, by environment id (migration 37). */
export const environmentVariables = table('environment_variables', {
  id: text,
  organization_id: text,
  key: text,
  type: textOf<EnvironmentVariableType>(),
  is_secret: boolean,
  environment_values: jsonb<Record<string, string>>(),
  created_at: timestamptz,
  updated_at: timestamptz,
});
export type EnvironmentVariableRow = Row<typeof environmentVariables>;

export const integrations = table('integrations', {
  id: text,
  organization_id: text,
  environment_id: text,
  name: text,
  identifier: text,
  provider_id: text,
  channel: textOf<Integration['channel']>(),
  /** Encrypted JSON (CredentialCipher). */
  credentials: text,
  configurations: defaulted(jsonb<Integration['configurations']>()),
  active: boolean,
  is_primary: defaulted(boolean),
  priority: defaulted(integer),
  conditions: defaulted(jsonb<Integration['conditions']>()),
  deleted: defaulted(boolean),
  deleted_at: nullable(timestamptz),
  deleted_by: nullable(text),
  created_at: timestamptz,
  updated_at: timestamptz,
  fallbacks: defaulted(jsonb<Integration['fallbacks']>()),
  rate_limit: nullable(jsonb<NonNullable<Integration['rateLimit']>>()),
  max_concurrency: nullable(integer),
});
export type IntegrationRow = Row<typeof integrations>;

// Columns hold what queries filter on; the document holds the rest of the aggregate.
export type WorkflowDocument = Pick<
  Workflow,
  | 'creatorId'
  | 'description'
  | 'draft'
  | 'preferenceSettings'
  | 'tags'
  | 'steps'
  | 'trigger'
  | 'notificationGroupId'
  | 'data'
  | 'lastPublishedBy'
  | 'origin'
  | 'payloadSchema'
  | 'validatePayload'
  | 'severity'
  | 'isTranslationEnabled'
  | 'preferences'
> & { lastPublishedAt?: string };

export const workflows = table('workflows', {
  id: text,
  organization_id: text,
  environment_id: text,
  trigger_identifier: text,
  name: text,
  active: boolean,
  critical: boolean,
  revision: integer,
  document: jsonb<WorkflowDocument>(),
  created_at: timestamptz,
  updated_at: timestamptz,
  deleted_at: nullable(timestamptz),
  deleted_by: nullable(text),
});
export type WorkflowRow = Row<typeof workflows>;

export const layouts = table('layouts', {
  id: text,
  organization_id: text,
  environment_id: text,
  layout_id: text,
  name: text,
  is_translation_enabled: boolean,
  control_values: nullable(jsonb<LayoutControlValues>()),
  default_since: nullable(timestamptz),
  creator_id: text,
  created_at: timestamptz,
  updated_at: timestamptz,
});
export type LayoutRow = Row<typeof layouts>;

/** In the order bulk inserts write them (jsonRows): the columns most triggers leave empty last. */
export const triggers = table('triggers', {
  id: text,
  organization_id: text,
  environment_id: text,
  transaction_id: text,
  workflow_id: text,
  workflow_identifier: text,
  recipients: jsonb<TriggerRecord['to']>(),
  broadcast: nullable(boolean),
  payload: jsonb<TriggerRecord['payload']>(),
  overrides: jsonb<TriggerRecord['overrides']>(),
  actor: nullable(jsonb<Of<TriggerRecord, 'actor'>>()),
  tenant: nullable(jsonb<Of<TriggerRecord, 'tenant'>>()),
  status: textOf<TriggerRecord['status']>(),
  fanout_job_id: nullable(text),
  time_ordered_ids: nullable(boolean),
  created_at: timestamptz,
  updated_at: timestamptz,
  context_keys: nullable(jsonb<Of<TriggerRecord, 'contextKeys'>>()),
});
export type TriggerRow = Row<typeof triggers>;

/** The accepted triggers, by creation (migration 26). */
export const triggersPending = table('triggers_pending', {
  created_at: timestamptz,
  id: text,
});

/** In the order bulk inserts write them: those most notifications leave empty last. */
export const notifications = table('notifications', {
  id: text,
  organization_id: text,
  environment_id: text,
  workflow_id: text,
  workflow_identifier: text,
  subscriber_id: text,
  external_subscriber_id: text,
  transaction_id: text,
  recipient: jsonb<Notification['to']>(),
  payload: jsonb<Notification['payload']>(),
  channels: jsonb<Notification['channels']>(),
  tags: jsonb<Notification['tags']>(),
  critical: boolean,
  topics: jsonb<Notification['topics']>(),
  created_at: timestamptz,
  updated_at: timestamptz,
  /** A chain's first job written finished, kept on its notification's row (migration 27). */
  first_job: nullable(jsonb<Record<string, unknown>>()),
  controls: nullable(jsonb<Of<Notification, 'controls'>>()),
  severity: nullable(text),
  tenant_identifier: nullable(text),
  actor_subscriber_id: nullable(text),
  digested_notification_id: nullable(text),
  context_keys: nullable(jsonb<Of<Notification, 'contextKeys'>>()),
});
export type NotificationRow = Row<typeof notifications>;

/** In the order bulk inserts write them; `details` and `output` last. */
export const jobs = table('jobs', {
  id: text,
  organization_id: text,
  environment_id: text,
  notification_id: text,
  transaction_id: text,
  subscriber_id: text,
  external_subscriber_id: text,
  workflow_id: text,
  workflow_identifier: text,
  step_id: text,
  parent_id: nullable(text),
  type: textOf<Job['type']>(),
  status: textOf<Job['status']>(),
  provider_id: nullable(text),
  payload: jsonb<Job['payload']>(),
  overrides: jsonb<Job['overrides']>(),
  tenant: nullable(jsonb<Of<Job, 'tenant'>>()),
  actor_id: nullable(text),
  digest: nullable(jsonb<Of<Job, 'digest'>>()),
  digest_bucket_key: nullable(text),
  merged_digest_id: nullable(text),
  run_at: nullable(timestamptz),
  attempts: defaulted(integer),
  schedule_extensions_count: nullable(integer),
  error: nullable(jsonb<Of<Job, 'error'>>()),
  created_at: timestamptz,
  updated_at: timestamptz,
  context_keys: nullable(jsonb<Of<Job, 'contextKeys'>>()),
  /** The details written with the job, without the job's own fields (migration 23). */
  details: nullable(jsonb<Record<string, unknown>[]>()),
  output: nullable(jsonb<unknown>()),
});
export type JobRow = Row<typeof jobs>;

/** In the order bulk inserts write them. */
export const executionDetails = table('execution_details', {
  id: text,
  organization_id: text,
  environment_id: text,
  notification_id: text,
  job_id: text,
  subscriber_id: text,
  transaction_id: text,
  channel: nullable(text),
  provider_id: nullable(text),
  status: textOf<ExecutionDetail['status']>(),
  source: textOf<ExecutionDetail['source']>(),
  detail: text,
  raw: nullable(text),
  is_retry: boolean,
  is_test: boolean,
  created_at: timestamptz,
});
export type ExecutionDetailRow = Row<typeof executionDetails>;

/**
 * In the order bulk inserts write them: those every message has first, then those the delivery
 * insert takes from the notification, those of some channels, and those set later.
 */
export const messages = table('messages', {
  id: text,
  notification_id: text,
  job_id: text,
  step_id: nullable(text),
  channel: textOf<Message['channel']>(),
  provider_id: nullable(text),
  status: textOf<Message['status']>(),
  content: jsonb<Message['content']>(),
  read: defaulted(boolean),
  seen: defaulted(boolean),
  archived: defaulted(boolean),
  /** ISO texts. */
  delivered_at: defaulted(jsonb<string[]>()),
  overrides: jsonb<Message['overrides']>(),
  tags: nullable(jsonb<Of<Message, 'tags'>>()),
  created_at: timestamptz,
  updated_at: timestamptz,
  organization_id: text,
  environment_id: text,
  subscriber_id: text,
  workflow_id: text,
  template_identifier: text,
  transaction_id: text,
  payload: jsonb<Message['payload']>(),
  subject: nullable(text),
  title: nullable(text),
  cta: nullable(jsonb<Of<Message, 'cta'>>()),
  avatar: nullable(text),
  actor_subscriber_id: nullable(text),
  actor: nullable(jsonb<Of<Message, 'actor'>>()),
  email: nullable(text),
  phone: nullable(text),
  device_tokens: nullable(jsonb<Of<Message, 'deviceTokens'>>()),
  direct_webhook_url: nullable(text),
  identifier: nullable(text),
  error_id: nullable(text),
  error_text: nullable(text),
  last_seen_date: nullable(timestamptz),
  last_read_date: nullable(timestamptz),
  snoozed_until: nullable(timestamptz),
  archived_at: nullable(timestamptz),
  first_seen_date: nullable(timestamptz),
  delivery_state: nullable(textOf<Of<Message, 'deliveryState'>>()),
  delivery_state_at: nullable(timestamptz),
  data: nullable(jsonb<Of<Message, 'data'>>()),
});
export type MessageRow = Row<typeof messages>;

export const digestBuckets = table('digest_buckets', {
  environment_id: text,
  bucket_key: text,
  status: textOf<'open' | 'closed'>(),
  generation: defaulted(integer),
  master_job_id: nullable(text),
  master_notification_id: nullable(text),
  /** DigestEvents with `at` as ISO text. */
  events: defaulted(jsonb<{ jobId: string; notificationId: string; payload?: Record<string, unknown>; at: string }[]>()),
  fire_at: nullable(timestamptz),
  last_event_at: nullable(timestamptz),
  updated_at: defaulted(timestamptz),
});
export type DigestBucketRow = Row<typeof digestBuckets>;

export const throttleWindows = table('throttle_windows', {
  environment_id: text,
  throttle_key: text,
  opened_at: timestamptz,
  ends_at: timestamptz,
  job_ids: textList,
});
export type ThrottleWindowRow = Row<typeof throttleWindows>;

export const deliveryEvents = table('delivery_events', {
  id: text,
  organization_id: text,
  environment_id: text,
  integration_id: text,
  event_key: text,
  message_id: text,
  type: textOf<DeliveryEventRecord['type']>(),
  occurred_at: timestamptz,
  created_at: timestamptz,
});
export type DeliveryEventRow = Row<typeof deliveryEvents>;

export const suppressions = table('suppressions', {
  organization_id: text,
  environment_id: text,
  address: text,
  channel: textOf<Suppression['channel']>(),
  reason: textOf<Suppression['reason']>(),
  provider_id: text,
  message_id: text,
  detail: nullable(text),
  created_at: timestamptz,
});
export type SuppressionRow = Row<typeof suppressions>;

export const webhookEndpoints = table('webhook_endpoints', {
  id: text,
  organization_id: text,
  environment_id: text,
  kind: textOf<WebhookEndpoint['kind']>(),
  url: text,
  description: nullable(text),
  event_types: nullable(jsonb<Of<WebhookEndpoint, 'eventTypes'>>()),
  disabled: defaulted(boolean),
  disabled_reason: nullable(text),
  /** Encrypted JSON of the signing secrets (CredentialCipher). */
  secrets: text,
  created_at: timestamptz,
  updated_at: timestamptz,
});
export type WebhookEndpointRow = Row<typeof webhookEndpoints>;

export const webhookDeliveries = table('webhook_deliveries', {
  id: text,
  organization_id: text,
  environment_id: text,
  endpoint_id: text,
  event_type: textOf<WebhookDelivery['eventType']>(),
  body: text,
  url: nullable(text),
  status: textOf<WebhookDelivery['status']>(),
  attempts: defaulted(integer),
  next_attempt_at: nullable(timestamptz),
  created_at: timestamptz,
  updated_at: timestamptz,
});
export type WebhookDeliveryRow = Row<typeof webhookDeliveries>;

export const webhookAttempts = table('webhook_attempts', {
  id: text,
  organization_id: text,
  environment_id: text,
  endpoint_id: text,
  delivery_id: text,
  event_type: textOf<WebhookAttempt['eventType']>(),
  attempt: integer,
  status_code: nullable(integer),
  latency_ms: nullable(integer),
  success: boolean,
  error: nullable(text),
  response_excerpt: nullable(text),
  created_at: timestamptz,
});
export type WebhookAttemptRow = Row<typeof webhookAttempts>;

export const queueJobs = table('queue_jobs', {
  queue: text,
  id: text,
  seq: defaulted(bigint),
  data: jsonb<unknown>(),
  state: defaulted(textOf<Exclude<JobState, 'waiting' | 'delayed'> | 'pending'>()),
  run_at: timestamptz,
  attempts: integer,
  attempts_made: defaulted(integer),
  stalled_count: defaulted(integer),
  backoff_ms: defaulted(integer),
  locked_by: nullable(text),
  locked_until: nullable(timestamptz),
  last_error: nullable(text),
  created_at: defaulted(timestamptz),
  finished_at: nullable(timestamptz),
});
export type QueueJobRow = Row<typeof queueJobs>;

export const translations = table('translations', {
  id: text,
  organization_id: text,
  environment_id: text,
  resource_type: textOf<TranslationResourceType>(),
  resource_key: text,
  locale: text,
  content: jsonb<TranslationContent>(),
  created_at: timestamptz,
  updated_at: timestamptz,
});
export type TranslationRow = Row<typeof translations>;

export const translationSettings = table('translation_settings', {
  environment_id: text,
  organization_id: text,
  default_locale: text,
  target_locales: textList,
});
export type TranslationSettingsRow = Row<typeof translationSettings>;

/** Every table, for the catalogue check. */
export const TABLES = [
  schemaMigrations,
  systemClaims,
  organizations,
  environments,
  apiKeys,
  idempotencyKeys,
  subscribers,
  subscriberPreferences,
  topics,
  topicSubscriptions,
  tenants,
  contexts,
  environmentVariables,
  integrations,
  workflows,
  layouts,
  triggers,
  triggersPending,
  notifications,
  jobs,
  executionDetails,
  messages,
  digestBuckets,
  throttleWindows,
  deliveryEvents,
  suppressions,
  webhookEndpoints,
  webhookDeliveries,
  webhookAttempts,
  queueJobs,
  translations,
  translationSettings,
];
