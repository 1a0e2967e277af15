import { StepType } from './step-type';

export interface NotificationTopic {
  topicId: string;
  topicKey: string;
}

/** One trigger delivered to one subscriber (Novu creates one per subscriber per trigger). */
export interface Notification {
  id: string;
  organizationId: string;
  environmentId: string;
  workflowId: string;
  workflowIdentifier: string;
  /** Internal id of the subscriber. */
  subscriberId: string;
  externalSubscriberId: string;
  transactionId: string;
  /** The recipient as given in the trigger. */
  to: Record<string, unknown>;
  payload: Record<string, unknown>;
  controls?: Record<string, unknown>;
  channels: StepType[];
  tags: string[];
  severity?: string;
  critical: boolean;
  topics: NotificationTopic[];
  tenantIdentifier?: string;
  actorSubscriberId?: string;
  /** The contexts the trigger named (`type:id`, sorted), as Novu records them. */
  contextKeys?: string[];
  /** Set when this notification's digest merged into another notification's digest. */
  digestedNotificationId?: string;
  createdAt: Date;
  updatedAt: Date;
}
