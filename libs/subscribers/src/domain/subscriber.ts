/** Per-provider delivery credentials a subscriber holds (chat webhooks, push tokens…). */
export interface ChannelCredentials {
  webhookUrl?: string;
  channel?: string;
  deviceTokens?: string[];
  alertUid?: string;
  title?: string;
  imageUrl?: string;
  state?: string;
  externalUrl?: string;
}

export interface SubscriberChannel {
  providerId: string;
  integrationIdentifier?: string;
  integrationId: string;
  credentials: ChannelCredentials;
}

import type { SubscriberProfileField } from './subscriber-changes';

export type ClearableField = SubscriberProfileField | 'data';

/** A recipient, known by the caller's own `subscriberId`, unique per environment. */
export interface Subscriber {
  id: string;
  organizationId: string;
  environmentId: string;
  subscriberId: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  avatar?: string;
  locale?: string;
  timezone?: string;
  data?: Record<string, unknown>;
  /** Fields the caller set to null (Novu answers them as `null`; a field never set is left out). */
  cleared?: ClearableField[];
  channels: SubscriberChannel[];
  isOnline?: boolean;
  lastOnlineAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}
