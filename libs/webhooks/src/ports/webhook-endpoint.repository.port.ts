import { EnvironmentScope, PageRequest } from '@app/kernel';
import { SigningSecret, WebhookEndpoint } from '../domain/webhook-endpoint';

/** One page (0-based `page`) and whether another follows. */
export interface ListPage<T> {
  items: T[];
  hasMore: boolean;
}

/** Fields to change; null clears an optional one. */
export interface WebhookEndpointChanges {
  url?: string;
  description?: string | null;
  eventTypes?: WebhookEndpoint['eventTypes'] | null;
  disabled?: boolean;
  disabledReason?: string | null;
  secrets?: SigningSecret[];
}

/** The webhook endpoints of each environment (and its hidden reply-callback signer); secrets are encrypted at rest by the adapter. */
export interface WebhookEndpointRepository {
  insert(endpoint: WebhookEndpoint): Promise<void>;
  /** The environment's reply-callback signer, inserted as given if it has none yet (one per environment); answers the stored one. */
  ensureReplyCallback(candidate: WebhookEndpoint): Promise<WebhookEndpoint>;
  findById(scope: EnvironmentScope, id: string): Promise<WebhookEndpoint | null>;
  /** Endpoints (kind `endpoint`) of the environment, oldest first. */
  list(scope: EnvironmentScope, page: PageRequest): Promise<ListPage<WebhookEndpoint>>;
  /** Endpoints (kind `endpoint`) not disabled, for publishing. */
  listEnabled(scope: EnvironmentScope): Promise<WebhookEndpoint[]>;
  /** Applies the changes; null when the endpoint is gone. */
  update(scope: EnvironmentScope, id: string, changes: WebhookEndpointChanges, now: Date): Promise<WebhookEndpoint | null>;
  delete(scope: EnvironmentScope, id: string): Promise<boolean>;
}
export const WEBHOOK_ENDPOINT_REPOSITORY = Symbol('WebhookEndpointRepository');

export type { SigningSecret };
