import { ProviderCheckResult, ProviderError, ProviderErrorKind, SendContext, SmsMessage } from '@app/delivery';
import { httpFailure, VendorResponse } from '../http/vendor-http';

/** The sender of one SMS: the message's `from` (overrides) before the integration's. */
export function senderOf<T extends string | undefined>(message: SmsMessage, credentials: { from: T }): string | T {
  return message.from ?? credentials.from;
}

/** E.164 without the leading `+`, for vendors that want bare digits (Vonage, MessageBird, Infobip, seven). */
export function bareNumber(phone: string): string {
  return phone.trim().replace(/^\+/, '');
}

/** A full URL from a credential that may lack its scheme (https:// assumed, as for `baseUrl`). */
export function absoluteUrl(url: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`;
}

/** A string (or number) override from `context.overrides`; anything else is ignored. */
export function overrideOf(context: SendContext, key: string): string | undefined {
  const value = context.overrides?.[key];
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A whole-number override (validity periods and the like); anything else is ignored. */
export function numericOverrideOf(context: SendContext, key: string): number | undefined {
  const value = overrideOf(context, key);
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** When the vendor accepted the message: its own timestamp, else the HTTP Date header, else now. */
export function acceptedAt(vendorDate: unknown, response?: VendorResponse): string {
  for (const candidate of [vendorDate, response?.header('date')]) {
    if (typeof candidate !== 'string' && typeof candidate !== 'number') continue;
    const at = typeof candidate === 'number' ? candidate : Date.parse(candidate);
    if (Number.isFinite(at)) return new Date(at).toISOString();
  }
  return new Date().toISOString();
}

interface VendorFailureDetail {
  /** The vendor's own words. */
  text?: string;
  /** The vendor's error code. */
  code?: string | number;
  /** A kind the vendor's code makes more precise than the HTTP status. */
  kind?: ProviderErrorKind;
  retryAfterMs?: number;
}

/** A non-2xx answer classified by status, refined by what the vendor's code says. */
export function vendorHttpFailure(response: VendorResponse, detail: VendorFailureDetail = {}): ProviderError {
  const text = detail.text && detail.code !== undefined ? `${detail.text} (code ${detail.code})` : detail.text;
  const error = httpFailure(response, text);
  const retryAfterMs = detail.retryAfterMs ?? error.retryAfterMs;
  return new ProviderError(detail.kind ?? error.kind, error.message, {
    status: error.status,
    providerCode: detail.code === undefined ? undefined : String(detail.code),
    raw: error.raw,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/** A refusal inside a 2xx answer (Vonage, Infobip, seven): the vendor's code decides the kind. */
export function vendorRefusal(
  vendor: string,
  kind: ProviderErrorKind,
  response: VendorResponse,
  detail: { text: string; code?: string | number; retryAfterMs?: number; target?: string },
): ProviderError {
  const code = detail.code === undefined ? '' : ` (code ${detail.code})`;
  return new ProviderError(kind, `${vendor} refused the message${code}: ${detail.text}`, {
    status: response.status,
    providerCode: detail.code === undefined ? undefined : String(detail.code),
    raw: { status: response.status, body: response.text.slice(0, 2_000) },
    ...(detail.retryAfterMs === undefined ? {} : { retryAfterMs: detail.retryAfterMs }),
    ...(detail.target === undefined ? {} : { target: detail.target }),
  });
}

/** A failed check: the vendor's words when it gave some, else the status. */
export function checkFailed(vendor: string, response: VendorResponse, text?: string): ProviderCheckResult {
  return { ok: false, message: text || `${vendor} answered HTTP ${response.status}` };
}
