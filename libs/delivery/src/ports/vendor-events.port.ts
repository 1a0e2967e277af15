import { DomainError } from '@app/kernel';
import { VendorDeliveryEvent } from '../domain/delivery-event';

/** A vendor's webhook request as it arrived: the raw body is what vendors sign. */
export interface InboundWebhookRequest {
  rawBody: Buffer;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The public URL the vendor called (Twilio signs it), query included. */
  url: string;
}

/** What the integration holds that a vendor signs with (plain, decrypted). */
export interface InboundWebhookKeys {
  credentials: Readonly<Record<string, unknown>>;
  signingKey?: string;
}

export type VendorEventBatch =
  /** Verified events (some vendors send several in one request). */
  | { kind: 'events'; events: VendorDeliveryEvent[] }
  /** A verified subscription handshake (Amazon SNS): `confirmUrl` is where the subscription is confirmed. */
  | { kind: 'subscription'; confirmUrl: string; topic: string };

/** The signature is bad, missing or too old; or no key is configured to check it. Nothing is recorded. */
export class InvalidWebhookSignatureError extends DomainError {
  constructor(reason: string) {
    super('invalid_webhook_signature', reason, 'unauthorized');
  }
}

/** The body is signed correctly but is not what the vendor sends. */
export class MalformedWebhookBodyError extends DomainError {
  constructor(reason: string) {
    super('malformed_webhook_body', reason, 'invalid');
  }
}

/** How far a signed timestamp may be from now. */
export const WEBHOOK_TOLERANCE_MS = 5 * 60 * 1000;

/** One vendor's event webhook: verifies its signature, then parses its events. */
export interface VendorEventSource {
  /** Provider ids it serves (e.g. `resend`, or several Svix-signed vendors). */
  readonly providerIds: readonly string[];
  /** Throws InvalidWebhookSignatureError before looking at the body when the signature does not hold. */
  parse(request: InboundWebhookRequest, keys: InboundWebhookKeys, now: Date): VendorEventBatch;
}

/** The sources by provider id. */
export interface VendorEventSources {
  get(providerId: string): VendorEventSource | undefined;
  providerIds(): string[];
}
export const VENDOR_EVENT_SOURCES = Symbol('VendorEventSources');

/** Settings of inbound delivery events. */
export interface DeliveryEventOptions {
  /** A hard bounce or spam report suppresses the address (SUPPRESS_BOUNCED_ADDRESSES, default on). */
  suppressAddresses: boolean;
}
export const DELIVERY_EVENT_OPTIONS = Symbol('DeliveryEventOptions');

/**
 * Confirms a vendor's subscription handshake (Amazon SNS) by GETting the URL it sent, under the
 * outbound network rules the webhooks and chat sends keep (no private targets unless allowed,
 * never cloud metadata). Never throws: says whether the vendor answered 2xx.
 */
export interface SubscriptionConfirmer {
  confirm(url: string): Promise<{ confirmed: boolean; error?: string }>;
}
export const SUBSCRIPTION_CONFIRMER = Symbol('SubscriptionConfirmer');
