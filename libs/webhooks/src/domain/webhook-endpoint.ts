import { OutboundEventType } from '@app/kernel';

/** A signing secret of an endpoint; a rotated-out one keeps signing until `expiresAt`. */
export interface SigningSecret {
  /** `whsec_` + base64 of 24 random bytes (Standard Webhooks' format). */
  secret: string;
  expiresAt?: Date;
}

/**
 * `endpoint`: a customer's webhook endpoint. `reply_callback`: the one hidden row per environment
 * whose secret signs reply callbacks (it has no URL; the step's replyCallback.url is the target).
 */
export type EndpointKind = 'endpoint' | 'reply_callback';

export interface WebhookEndpoint {
  id: string;
  organizationId: string;
  environmentId: string;
  kind: EndpointKind;
  url: string;
  description?: string;
  /** The event types sent; absent: every type. */
  eventTypes?: OutboundEventType[];
  disabled: boolean;
  /** Why the service disabled it (sustained failure); absent when a user did, or it is enabled. */
  disabledReason?: string;
  /** Newest first: the first signs alone once the others expire. */
  secrets: SigningSecret[];
  createdAt: Date;
  updatedAt: Date;
}

/** How long a rotated-out secret keeps signing alongside the new one. */
export const ROTATED_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

/** The secrets that sign now: the current one, and rotated-out ones not expired yet. */
export function activeSecrets(endpoint: Pick<WebhookEndpoint, 'secrets'>, now: Date): string[] {
  return endpoint.secrets.filter((entry) => !entry.expiresAt || entry.expiresAt.getTime() > now.getTime()).map((entry) => entry.secret);
}

export function takesEvent(endpoint: WebhookEndpoint, type: OutboundEventType): boolean {
  return endpoint.kind === 'endpoint' && !endpoint.disabled && (!endpoint.eventTypes || endpoint.eventTypes.includes(type));
}

/** The secrets after a rotation: the new one first, the old current one expiring after the grace period, expired ones dropped. */
export function rotateSecrets(secrets: SigningSecret[], fresh: string, now: Date): SigningSecret[] {
  const kept = secrets.filter((entry) => !entry.expiresAt || entry.expiresAt.getTime() > now.getTime());
  return [
    { secret: fresh },
    ...kept.map((entry) => ({ secret: entry.secret, expiresAt: entry.expiresAt ?? new Date(now.getTime() + ROTATED_SECRET_GRACE_MS) })),
  ];
}
