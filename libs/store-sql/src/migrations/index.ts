import type { Migration } from './migration';
import { environmentsMigration } from './0001_environments';
import { subscribersMigration } from './0002_subscribers';
import { topicsMigration } from './0003_topics';
import { tenantsMigration } from './0004_tenants';
import { integrationsMigration } from './0005_integrations';
import { workflowsMigration } from './0006_workflows';
import { deliveryMigration } from './0007_delivery';
import { preferencesMigration } from './0008_preferences';
import { jobRecoveryMigration } from './0010_job_recovery';
import { queueMigration } from './0009_queue';
import { triggerFanOutJobMigration } from './0011_trigger_fanout_job';
import { integrationFallbacksMigration } from './0012_integration_fallbacks';
import { retentionMigration } from './0013_retention';
import { inboxMigration } from './0014_inbox';
import { deliveryEventsMigration } from './0015_delivery_events';
import { outboundWebhooksMigration } from './0016_outbound_webhooks';
import { topicSubscriptionPreferencesMigration } from './0017_topic_subscription_preferences';
import { subscriberClearedFieldsMigration } from './0018_subscriber_cleared_fields';
import { messageActorMigration } from './0019_message_actor';
import { subscriberSearchMigration } from './0020_subscriber_search';
import { triggerBroadcastMigration } from './0021_trigger_broadcast';
import { preferenceEnabledMigration } from './0022_preference_enabled';
import { jobDetailsMigration } from './0023_job_details';
import { subscriberSearchStatisticsMigration } from './0024_subscriber_search_statistics';
import { deliveryIndexEntriesMigration } from './0025_delivery_index_entries';
import { pendingTriggersMigration } from './0026_pending_triggers';
import { firstJobOnNotificationMigration } from './0027_first_job_on_notification';
import { messageIndexEntriesMigration } from './0028_message_index_entries';
import { triggerTimeOrderedIdsMigration } from './0029_trigger_time_ordered_ids';
import { messageSubscriberIndexMigration } from './0030_message_subscriber_index';
import { environmentColorParentMigration } from './0031_environment_color_parent';
import { integrationUniquePriorityMigration } from './0032_integration_unique_priority';
import { throttleWindowsMigration } from './0033_throttle_windows';
import { jobOutputMigration } from './0034_job_output';
import { messageDataMigration } from './0035_message_data';
import { layoutsMigration } from './0036_layouts';
import { environmentVariablesMigration } from './0037_environment_variables';
import { contextsMigration } from './0038_contexts';
import { translationsMigration } from './0039_translations';
import { integrationDeliveryLimitsMigration } from './0040_integration_delivery_limits';

// One file per bounded context; a later change to a context adds a new numbered file.
export const MIGRATIONS: Migration[] = [
  environmentsMigration,
  subscribersMigration,
  topicsMigration,
  tenantsMigration,
  integrationsMigration,
  workflowsMigration,
  deliveryMigration,
  preferencesMigration,
  queueMigration,
  jobRecoveryMigration,
  triggerFanOutJobMigration,
  integrationFallbacksMigration,
  retentionMigration,
  inboxMigration,
  deliveryEventsMigration,
  outboundWebhooksMigration,
  topicSubscriptionPreferencesMigration,
  subscriberClearedFieldsMigration,
  messageActorMigration,
  subscriberSearchMigration,
  triggerBroadcastMigration,
  preferenceEnabledMigration,
  jobDetailsMigration,
  subscriberSearchStatisticsMigration,
  deliveryIndexEntriesMigration,
  pendingTriggersMigration,
  firstJobOnNotificationMigration,
  messageIndexEntriesMigration,
  triggerTimeOrderedIdsMigration,
  messageSubscriberIndexMigration,
  environmentColorParentMigration,
  integrationUniquePriorityMigration,
  throttleWindowsMigration,
  jobOutputMigration,
  messageDataMigration,
  layoutsMigration,
  environmentVariablesMigration,
  contextsMigration,
  translationsMigration,
  integrationDeliveryLimitsMigration,
];
