import type { Provider } from '@nestjs/common';
import {
  CHAIN_REPOSITORY,
  ChainRepository,
  DIGEST_BUCKET_REPOSITORY,
  DigestBucketRepository,
  EXECUTION_DETAIL_REPOSITORY,
  ExecutionDetailRepository,
  JOB_REPOSITORY,
  JobRepository,
  MESSAGE_REPOSITORY,
  MessageRepository,
  NOTIFICATION_REPOSITORY,
  NotificationRepository,
  TRIGGER_REPOSITORY,
  TriggerRepository,
  DELIVERY_EVENT_REPOSITORY,
  DeliveryEventRepository,
  SUPPRESSION_REPOSITORY,
  SuppressionRepository,
  THROTTLE_WINDOW_REPOSITORY,
  ThrottleWindowRepository,
} from '@app/delivery';
import {
  ENVIRONMENT_DATA_PURGER,
  ENVIRONMENT_REPOSITORY,
  ENVIRONMENT_VARIABLE_REPOSITORY,
  EnvironmentDataPurger,
  EnvironmentRepository,
  EnvironmentVariableRepository,
} from '@app/environments';
import { INBOX_REPOSITORY, InboxRepository } from '@app/inbox';
import { INTEGRATION_REPOSITORY, IntegrationRepository } from '@app/integrations';
import { Clock, IDEMPOTENCY_STORE, IdempotencyStore, QUEUE_JOB_STORE, QueueJobStore, systemClock } from '@app/kernel';
import { PREFERENCE_REPOSITORY, PreferenceRepository, SUBSCRIBER_REPOSITORY, SubscriberRepository, TOPIC_REPOSITORY, TopicRepository } from '@app/subscribers';
import { TENANT_REPOSITORY, TenantRepository } from '@app/tenants';
import { CONTEXT_REPOSITORY, ContextRepository } from '@app/contexts';
import { LAYOUT_REPOSITORY, LayoutRepository, WORKFLOW_REPOSITORY, WorkflowRepository } from '@app/workflows';
import { WEBHOOK_DELIVERY_REPOSITORY, WEBHOOK_ENDPOINT_REPOSITORY, WebhookDeliveryRepository, WebhookEndpointRepository } from '@app/webhooks';
import { InMemoryDigestBucketRepository } from './in-memory-digest-bucket.repository';
import { InMemoryEnvironmentDataPurger } from './in-memory-environment-data.purger';
import { InMemoryEnvironmentRepository } from './in-memory-environment.repository';
import { InMemoryChainRepository } from './in-memory-chain.repository';
import { InMemoryExecutionDetailRepository } from './in-memory-execution-detail.repository';
import { InMemoryIdempotencyStore } from './in-memory-idempotency.store';
import { InMemoryInboxRepository } from './in-memory-inbox.repository';
import { InMemoryIntegrationRepository } from './in-memory-integration.repository';
import { InMemoryJobRepository } from './in-memory-job.repository';
import { InMemoryMessageRepository } from './in-memory-message.repository';
import { InMemoryNotificationRepository } from './in-memory-notification.repository';
import { InMemoryPreferenceRepository } from './in-memory-preference.repository';
import { InMemoryQueueJobStore } from './in-memory-queue-job.store';
import { InMemorySubscriberRepository } from './in-memory-subscriber.repository';
import { InMemoryTenantRepository } from './in-memory-tenant.repository';
import { InMemoryContextRepository } from './in-memory-context.repository';
import { InMemoryEnvironmentVariableRepository } from './in-memory-environment-variable.repository';
import { InMemoryThrottleWindowRepository } from './in-memory-throttle-window.repository';
import { InMemoryTopicRepository } from './in-memory-topic.repository';
import { InMemoryTriggerRepository } from './in-memory-trigger.repository';
import { InMemoryWorkflowRepository } from './in-memory-workflow.repository';
import { InMemoryLayoutRepository } from './in-memory-layout.repository';
import { DeliveryTables } from './memory-delivery-tables';
import { InMemoryDeliveryEventRepository } from './in-memory-delivery-event.repository';
import { InMemorySuppressionRepository } from './in-memory-suppression.repository';
import { InMemoryWebhookDeliveryRepository } from './in-memory-webhook-delivery.repository';
import { InMemoryWebhookEndpointRepository } from './in-memory-webhook-endpoint.repository';
import { InMemoryTranslationRepository } from './in-memory-translation.repository';
import { TRANSLATION_REPOSITORY, TranslationRepository } from '@app/workflows';

export { InMemoryWebhookDeliveryRepository, InMemoryWebhookEndpointRepository };

/** Every store-backed port, one adapter each: what a store (SQL or memory) gives the contract suites. */
export interface Repositories {
  environments: EnvironmentRepository;
  idempotency: IdempotencyStore;
  subscribers: SubscriberRepository;
  preferences: PreferenceRepository;
  topics: TopicRepository;
  tenants: TenantRepository;
  contexts: ContextRepository;
  environmentVariables: EnvironmentVariableRepository;
  integrations: IntegrationRepository;
  workflows: WorkflowRepository;
  layouts: LayoutRepository;
  triggers: TriggerRepository;
  notifications: NotificationRepository;
  jobs: JobRepository;
  chains: ChainRepository;
  messages: MessageRepository;
  executionDetails: ExecutionDetailRepository;
  digestBuckets: DigestBucketRepository;
  throttleWindows: ThrottleWindowRepository;
  deliveryEvents: DeliveryEventRepository;
  suppressions: SuppressionRepository;
  /** The embedded JobQueue's jobs. */
  queueJobs: QueueJobStore;
  webhookEndpoints: WebhookEndpointRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  inbox: InboxRepository;
  translations: TranslationRepository;
  /** Every record of an environment, in every table. */
  environmentData: EnvironmentDataPurger;
}

export interface MemoryStore extends Repositories {
  /** Every repository bound to its port token, for `Test.createTestingModule({ providers: [...store.providers, …] })`. */
  providers: Provider[];
}

export interface MemoryStoreOptions {
  /** What stands in for the database's `now()` where a port method takes no time (default: the system clock). */
  clock?: Clock;
}

/**
 * A fresh, empty in-memory store: every repository port, held to the same contract suites as the
 * SQL adapters. The delivery repositories share one set of tables (a notification written with its
 * jobs, messages and details is read back through each of them). Test code only: no I/O, and
 * nothing survives the process.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const clock = options.clock ?? systemClock;
  const delivery = new DeliveryTables();
  const subscribers = new InMemorySubscriberRepository();
  const environments = new InMemoryEnvironmentRepository();
  const preferences = new InMemoryPreferenceRepository();
  const topics = new InMemoryTopicRepository();
  const tenants = new InMemoryTenantRepository();
  const contexts = new InMemoryContextRepository();
  const environmentVariables = new InMemoryEnvironmentVariableRepository();
  const integrations = new InMemoryIntegrationRepository();
  const workflows = new InMemoryWorkflowRepository();
  const layouts = new InMemoryLayoutRepository();
  const triggers = new InMemoryTriggerRepository(clock);
  const digestBuckets = new InMemoryDigestBucketRepository();
  const throttleWindows = new InMemoryThrottleWindowRepository();
  const deliveryEvents = new InMemoryDeliveryEventRepository();
  const suppressions = new InMemorySuppressionRepository();
  const webhookEndpoints = new InMemoryWebhookEndpointRepository();
  const webhookDeliveries = new InMemoryWebhookDeliveryRepository();
  const translations = new InMemoryTranslationRepository();
  const repositories: Repositories = {
    environments,
    idempotency: new InMemoryIdempotencyStore(clock),
    subscribers,
    preferences,
    topics,
    tenants,
    contexts,
    environmentVariables,
    integrations,
    workflows,
    layouts,
    triggers,
    notifications: new InMemoryNotificationRepository(delivery),
    jobs: new InMemoryJobRepository(delivery, clock),
    chains: new InMemoryChainRepository(delivery, clock),
    messages: new InMemoryMessageRepository(delivery),
    executionDetails: new InMemoryExecutionDetailRepository(delivery),
    digestBuckets,
    throttleWindows,
    deliveryEvents,
    suppressions,
    queueJobs: new InMemoryQueueJobStore(clock),
    webhookEndpoints,
    webhookDeliveries,
    inbox: new InMemoryInboxRepository(delivery, subscribers),
    translations,
    environmentData: new InMemoryEnvironmentDataPurger([
      environments,
      subscribers,
      preferences,
      topics,
      tenants,
      contexts,
      environmentVariables,
      integrations,
      workflows,
      layouts,
      triggers,
      delivery,
      digestBuckets,
      throttleWindows,
      deliveryEvents,
      suppressions,
      webhookEndpoints,
      webhookDeliveries,
      translations,
    ]),
  };
  const tokens: [symbol, unknown][] = [
    [ENVIRONMENT_REPOSITORY, repositories.environments],
    [IDEMPOTENCY_STORE, repositories.idempotency],
    [SUBSCRIBER_REPOSITORY, repositories.subscribers],
    [PREFERENCE_REPOSITORY, repositories.preferences],
    [TOPIC_REPOSITORY, repositories.topics],
    [TENANT_REPOSITORY, repositories.tenants],
    [CONTEXT_REPOSITORY, repositories.contexts],
    [ENVIRONMENT_VARIABLE_REPOSITORY, repositories.environmentVariables],
    [INTEGRATION_REPOSITORY, repositories.integrations],
    [WORKFLOW_REPOSITORY, repositories.workflows],
    [LAYOUT_REPOSITORY, repositories.layouts],
    [TRIGGER_REPOSITORY, repositories.triggers],
    [NOTIFICATION_REPOSITORY, repositories.notifications],
    [JOB_REPOSITORY, repositories.jobs],
    [CHAIN_REPOSITORY, repositories.chains],
    [MESSAGE_REPOSITORY, repositories.messages],
    [EXECUTION_DETAIL_REPOSITORY, repositories.executionDetails],
    [DIGEST_BUCKET_REPOSITORY, repositories.digestBuckets],
    [THROTTLE_WINDOW_REPOSITORY, repositories.throttleWindows],
    [DELIVERY_EVENT_REPOSITORY, repositories.deliveryEvents],
    [SUPPRESSION_REPOSITORY, repositories.suppressions],
    [QUEUE_JOB_STORE, repositories.queueJobs],
    [WEBHOOK_ENDPOINT_REPOSITORY, repositories.webhookEndpoints],
    [WEBHOOK_DELIVERY_REPOSITORY, repositories.webhookDeliveries],
    [INBOX_REPOSITORY, repositories.inbox],
    [TRANSLATION_REPOSITORY, repositories.translations],
    [ENVIRONMENT_DATA_PURGER, repositories.environmentData],
  ];
  return { ...repositories, providers: tokens.map(([provide, useValue]) => ({ provide, useValue })) };
}
