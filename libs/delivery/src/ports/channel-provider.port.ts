import { Channel } from '@app/kernel';

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

/** Resolved credentials: integration credentials merged with overrides, as one flat record. */
export type ProviderConfig = Record<string, unknown>;

export interface SendContext {
  /** Our message (or job) id: forwarded where the vendor supports idempotency, so a redelivery is harmless. */
  idempotencyKey: string;
  /** Per-attempt timeout / cancellation. */
  signal: AbortSignal;
  /** overrides[channel] merged with overrides[providerId]. */
  overrides?: Record<string, unknown>;
}

export interface SendResult {
  /** The provider's id of the sent message, when it gives one. */
  id?: string;
  /** ISO-8601 time the provider accepted the message. */
  date: string;
}

export interface ChatMessage {
  content: string;
  /** The subscriber's chat endpoint (credentials.webhookUrl). */
  webhookUrl: string;
  channel?: string;
  phoneNumber?: string;
  customData?: Record<string, unknown>;
}

export interface PushMessage {
  /** Device tokens (Novu sends one per call). */
  target: string[];
  title: string;
  content: string;
  payload: Record<string, unknown>;
  overrides?: Record<string, unknown>;
  subscriber?: Record<string, unknown>;
  step?: Record<string, unknown>;
}

export interface EmailMessage {
  to: string[];
  subject: string;
  html: string;
  text?: string;
  from?: string;
  senderName?: string;
  replyTo?: string;
  cc?: string[];
  bcc?: string[];
  headers?: Record<string, string>;
  customData?: Record<string, unknown>;
  id: string;
}

export interface SmsMessage {
  to: string;
  content: string;
  from?: string;
  customData?: Record<string, unknown>;
  id: string;
}

export interface ChannelMessages {
  email: EmailMessage;
  sms: SmsMessage;
  chat: ChatMessage;
  push: PushMessage;
  in_app: never;
}

/** One provider (sendgrid, chat-webhook, …) for one channel. */
export interface ChannelProvider<C extends Exclude<Channel, 'in_app'> = Exclude<Channel, 'in_app'>> {
  readonly id: string;
  readonly channel: C;
  /** Throws ProviderError on failure. */
  send(message: ChannelMessages[C], config: ProviderConfig, context: SendContext): Promise<SendResult>;
}

/** Providers by id; the engine asks for the one an integration names. */
export interface ProviderRegistry {
  get(providerId: string): ChannelProvider | undefined;
  has(providerId: string): boolean;
  list(): ChannelProvider[];
}
export const PROVIDER_REGISTRY = Symbol('ProviderRegistry');
