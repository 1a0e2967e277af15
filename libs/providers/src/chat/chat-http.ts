import { ChatMessage, ProviderError, ProviderErrorKind } from '@app/delivery';
import { parseRetryAfter } from '../network/failure-classification';
import { httpFailure, isPlainObject, VendorResponse } from '../http/vendor-http';

/**
 * Helpers shared by the chat adapters. Most chat vendors are reached through a URL the subscriber
 * supplied whose path or query IS the credential (a Slack hook, a Discord webhook token, a Zulip
 * api_key): it never goes into an error message or raw, and an HTTP 401/403/404 from such a URL
 * means the subscriber's endpoint is wrong or gone, not that the integration's credentials are.
 */

/** The subscriber's webhook URL, checked to be an http(s) URL (without ever echoing it). */
export function subscriberWebhookUrl(providerId: string, message: ChatMessage): string {
  const raw = message.webhookUrl?.trim();
  if (!raw) {
    throw new ProviderError('invalid_recipient', `The subscriber has no ${providerId} webhook URL (credentials.webhookUrl)`, {
      raw: { missing: 'webhookUrl' },
    });
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProviderError('invalid_recipient', `The subscriber's ${providerId} webhook URL is not a valid URL`, { raw: { invalid: 'webhookUrl' } });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ProviderError('invalid_recipient', `The subscriber's ${providerId} webhook URL must be http(s)`, { raw: { invalid: 'webhookUrl' } });
  }
  return url.toString();
}

/** The override keys an adapter documents, in the order given; absent keys are left out. */
export function pickOverrides(overrides: Record<string, unknown> | undefined, keys: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of keys) {
    if (overrides?.[key] !== undefined) picked[key] = overrides[key];
  }
  return picked;
}

/** Novu spreads `customData` into the vendor body of some chat providers. */
export function customDataOf(message: ChatMessage): Record<string, unknown> {
  return isPlainObject(message.customData) ? message.customData : {};
}

export interface ChatFailureDetail {
  /** The vendor's own error text (never a URL or a secret). */
  message?: string;
  /** The vendor's error code (Slack `channel_not_found`, Discord 10015, Graph 131026…). */
  code?: string | number;
  /** Overrides the kind the HTTP status implies. */
  kind?: ProviderErrorKind;
  /** Overrides Retry-After (a vendor-specific wait: Discord `retry_after`, a reset time). */
  retryAfterMs?: number;
  /** The URL the request went to is the subscriber's credential: 401/403/404 mean a bad endpoint. */
  subscriberUrl?: boolean;
  /** Leave the vendor's body out of raw (it may quote a secret). */
  withoutBody?: boolean;
}

/**
 * A vendor's refusal as a ProviderError: the kind follows the HTTP status (see
 * classifyHttpFailure) unless the vendor's code says more; a 2xx carrying an error is permanent
 * unless told otherwise.
 */
export function chatFailure(vendor: string, response: VendorResponse, detail: ChatFailureDetail = {}): ProviderError {
  const ok = response.status >= 200 && response.status < 300;
  const said = detail.message ? `: ${withoutUrls(detail.message)}` : '';
  const base = ok
    ? new ProviderError('permanent', `${vendor} reported an error (HTTP ${response.status})${said}`, { status: response.status })
    : httpFailure(response, `${vendor}${said}`);
  let kind = detail.kind ?? base.kind;
  if (!detail.kind && detail.subscriberUrl && [401, 403, 404].includes(response.status)) kind = 'invalid_recipient';
  const retryAfterMs = detail.retryAfterMs ?? base.retryAfterMs;
  return new ProviderError(kind, base.message, {
    status: response.status,
    ...(detail.code === undefined ? {} : { providerCode: String(detail.code) }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    raw: detail.withoutBody ? { status: response.status } : { status: response.status, body: withoutUrls(response.text.slice(0, 2_000)) },
  });
}

/** Vendors sometimes quote the URL they were called at; a chat URL is a credential. */
function withoutUrls(text: string): string {
  return text.replace(/\b(?:https?|wss?):\/\/[^\s"'<>]+/gi, '<url>');
}

/** A wait given in seconds in a vendor's JSON (Discord `retry_after`, Zulip `retry-after`). */
export function secondsToMs(value: unknown): number | undefined {
  const seconds = typeof value === 'string' ? Number(value) : value;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : undefined;
}

/** The Retry-After header as milliseconds. */
export function retryAfterOf(response: VendorResponse): number | undefined {
  return parseRetryAfter(response.header('retry-after'));
}

/** When the vendor accepted the message: its Date header, else now. */
export function responseDate(response: VendorResponse): string {
  return isoDate(response.header('date'));
}

/** An ISO-8601 date from a date string or epoch milliseconds; now when unreadable. */
export function isoDate(value: unknown): string {
  const at = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
  return new Date(Number.isFinite(at) ? at : Date.now()).toISOString();
}

/** A JSON text that is an object, parsed (Teams cards arrive as the rendered content). */
export function jsonObjectOf(value: unknown): Record<string, unknown> | undefined {
  if (isPlainObject(value)) return value;
  if (typeof value !== 'string' || !value.trim().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
