import { Channel } from '@app/kernel';

/** Channels delivered through an outside provider (in-app is stored, not sent). */
export type DeliveryChannel = Exclude<Channel, 'in_app'>;

/** How a provider failure should be handled: retry, wait and retry, or give up. */
export const PROVIDER_ERROR_KINDS = ['retryable', 'rate_limited', 'auth', 'invalid_request', 'invalid_recipient', 'permanent'] as const;
export type ProviderErrorKind = (typeof PROVIDER_ERROR_KINDS)[number];

export interface ProviderErrorOptions {
  status?: number;
  providerCode?: string;
  retryAfterMs?: number;
  /** For per-target failures (a push token, an address). */
  target?: string;
  /** Response excerpt or network error, for the execution detail's raw. */
  raw?: unknown;
  cause?: unknown;
}

/** Every adapter maps its failures to this; the queue (not the SDK) owns retries. */
export class ProviderError extends Error {
  readonly status?: number;
  readonly providerCode?: string;
  readonly retryAfterMs?: number;
  readonly target?: string;
  readonly raw?: unknown;

  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    options: ProviderErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderError';
    this.status = options.status;
    this.providerCode = options.providerCode;
    this.retryAfterMs = options.retryAfterMs;
    this.target = options.target;
    this.raw = options.raw;
  }

  /** Whether another attempt may succeed. */
  get retryable(): boolean {
    return this.kind === 'retryable' || this.kind === 'rate_limited';
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}

/** The integration's credentials as stored (plain, decrypted); each adapter parses what it needs. */
export type ProviderCredentials = Readonly<Record<string, unknown>>;

/** Novu v2's escape hatch, honoured by every HTTP adapter: deep-merged into the vendor request. */
export interface ProviderPassthrough {
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

export interface SendContext {
  /** Our message id: forwarded where the vendor supports idempotency, so a redelivery is harmless. */
  idempotencyKey: string;
  /** Per-attempt timeout / cancellation. */
  signal: AbortSignal;
  /**
   * The provider data of the trigger's overrides, merged in Novu's order: `overrides.<channel>`,
   * `overrides.<providerId>`, `overrides.providers.<providerId>`, `overrides.steps.<step>.providers.<providerId>`.
   */
  overrides?: Record<string, unknown>;
  /** `_passthrough` of those overrides. */
  passthrough?: ProviderPassthrough;
}

export interface SendResult {
  /** The provider's id of the sent message, when it gives one. */
  id?: string;
  /** ISO-8601 time the provider accepted the message. */
  date: string;
  /** What the vendor answered (an excerpt), for the execution detail. */
  raw?: unknown;
}

export interface EmailAttachment {
  name: string;
  /** MIME type. */
  mime: string;
  file: Buffer;
  /** Content id, for inline images (`cid:`). */
  cid?: string;
  disposition?: 'attachment' | 'inline';
}

export interface EmailMessage {
  id: string;
  to: string[];
  cc?: string[];
  bcc?: string[];
  /** Sender address; the integration's `from` when absent. */
  from?: string;
  senderName?: string;
  replyTo?: string;
  subject: string;
  html: string;
  text?: string;
  attachments?: EmailAttachment[];
  headers?: Record<string, string>;
  customData?: Record<string, unknown>;
  /** Ids vendors can echo back in their events (SendGrid custom_args, Mailgun v:, …). */
  tags?: Record<string, string>;
}

export interface SmsMessage {
  id: string;
  /** E.164 phone number. */
  to: string;
  content: string;
  /** Sender number or id; the integration's `from` when absent. */
  from?: string;
  customData?: Record<string, unknown>;
}

export interface ChatMessage {
  id: string;
  content: string;
  /** The subscriber's chat endpoint (credentials.webhookUrl). */
  webhookUrl?: string;
  /** The subscriber's channel / room (credentials.channel). */
  channel?: string;
  /** The subscriber's phone (WhatsApp). */
  phoneNumber?: string;
  /** The rest of the subscriber's channel credentials (Grafana alertUid, title, …). */
  recipient?: Record<string, unknown>;
  customData?: Record<string, unknown>;
}

export interface PushMessage {
  id: string;
  /** One device token: push goes out one call per token (as Novu). */
  target: string;
  title: string;
  content: string;
  payload: Record<string, unknown>;
  subscriber?: Record<string, unknown>;
  step?: Record<string, unknown>;
}

export interface ChannelMessages {
  email: EmailMessage;
  sms: SmsMessage;
  chat: ChatMessage;
  push: PushMessage;
}

export interface ProviderCheckResult {
  ok: boolean;
  /** The vendor's own words when the check failed. */
  message?: string;
}

/** One provider (sendgrid, slack, …) for one channel. */
export interface ChannelProvider<C extends DeliveryChannel = DeliveryChannel> {
  readonly id: string;
  readonly channel: C;
  /** Throws ProviderError on failure (bad credentials included: `invalid_request` naming the field). */
  send(message: ChannelMessages[C], credentials: ProviderCredentials, context: SendContext): Promise<SendResult>;
  /** A live, side-effect-free check of the credentials, where the vendor offers one. */
  check?(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult>;
}

/** Providers by channel and id; the engine asks for the one an integration names. */
export interface ProviderRegistry {
  get<C extends DeliveryChannel>(channel: C, providerId: string): ChannelProvider<C> | undefined;
  list(): ChannelProvider[];
}
export const PROVIDER_REGISTRY = Symbol('ProviderRegistry');
