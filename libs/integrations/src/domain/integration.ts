import { Channel, Condition } from '@app/kernel';
import { IntegrationRateLimit } from './delivery-limits';

/** All optional; which ones a provider needs is in the provider catalogue. */
export type IntegrationCredentials = Record<string, string | boolean | Record<string, unknown> | undefined>;

export interface IntegrationConfigurations {
  inboundWebhookEnabled?: boolean;
  inboundWebhookSigningKey?: string;
}

/** A configured provider connection for one channel within one environment. */
export interface Integration {
  id: string;
  organizationId: string;
  environmentId: string;
  name: string;
  identifier: string;
  providerId: string;
  channel: Channel;
  /** Plain in the domain; the store adapters encrypt them at rest (CredentialCipher port). */
  credentials: IntegrationCredentials;
  configurations: IntegrationConfigurations;
  active: boolean;
  /** Only email and sms have a primary. */
  primary: boolean;
  priority: number;
  conditions: Condition[];
  /**
   * Identifiers of integrations of the same channel tried in order when this one fails for good
   * (a permanent error, or retries exhausted). Beyond Novu.
   */
  fallbacks: string[];
  /** Vendor calls per second through this integration; absent: the provider's default, if any. Beyond Novu. */
  rateLimit?: IntegrationRateLimit;
  /** Vendor calls in flight at once through this integration; absent: the provider's default, if any. Beyond Novu. */
  maxConcurrency?: number;
  deleted: boolean;
  deletedAt?: Date;
  deletedBy?: string;
  createdAt: Date;
  updatedAt: Date;
}
