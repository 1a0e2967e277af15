import { createHash, KeyObject, sign } from 'node:crypto';
import { ProviderError, ProviderErrorKind } from '@app/delivery';
import { VendorResponse } from '../http/vendor-http';

/**
 * The vendor says this device token is dead (uninstalled app, expired or foreign token): the
 * engine removes `target` from the subscriber's device tokens when it sees this error.
 */
export function deadDeviceToken(
  vendor: string,
  token: string,
  providerCode: string,
  detail: string,
  options: { status?: number; raw?: unknown } = {},
): ProviderError {
  return new ProviderError('invalid_recipient', `${vendor} rejected the device token (${providerCode}): ${detail}`, {
    ...options,
    target: token,
    providerCode,
  });
}

/** The same failure under the kind and code the vendor's own error code calls for (status, wait and raw kept). */
export function reclassify(error: ProviderError, kind: ProviderErrorKind, providerCode?: string): ProviderError {
  return new ProviderError(kind, error.message, {
    status: error.status,
    retryAfterMs: error.retryAfterMs,
    raw: error.raw,
    providerCode: providerCode ?? error.providerCode,
  });
}

/**
 * A UUID that is stable for one message to one device (RFC 4122 layout, name-based on SHA-1), for
 * vendors that take a UUID id or idempotency key: a redelivery of the same message reuses it.
 */
export function deliveryUuid(messageId: string, target: string): string {
  const bytes = createHash('sha1').update(`${messageId}\n${target}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Every value a string (objects and numbers as JSON), as FCM's `data` requires. */
export function stringValues(record: Record<string, unknown> | undefined): Record<string, string> | undefined {
  if (!record) return undefined;
  const entries = Object.entries(record).filter(([, value]) => value !== undefined);
  return Object.fromEntries(entries.map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));
}

/** The value without undefined members (at any depth), so the vendor never sees `"key": null` it did not ask for. */
export function compact<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Typed reads of `context.overrides`; a value of the wrong type is ignored rather than sent. */
export function overrideReader(overrides: Record<string, unknown> | undefined) {
  const source = overrides ?? {};
  return {
    string(key: string): string | undefined {
      const value = source[key];
      return typeof value === 'string' && value !== '' ? value : undefined;
    },
    /** Numbers, or numeric strings as dashboards store them. */
    number(key: string): number | undefined {
      const value = source[key];
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
    },
    boolean(key: string): boolean | undefined {
      const value = source[key];
      if (value === true || value === 'true') return true;
      if (value === false || value === 'false') return false;
      return undefined;
    },
    object(key: string): Record<string, unknown> | undefined {
      const value = source[key];
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    },
    /** Whatever is there (arrays, objects, scalars), for vendor fields passed as given. */
    raw(key: string): unknown {
      return source[key];
    },
  };
}

/** A compact JWS signed with RS256 (Google service accounts) or ES256 (APNs .p8 keys). */
export function signJwt(alg: 'RS256' | 'ES256', header: Record<string, unknown>, payload: Record<string, unknown>, key: KeyObject): string {
  const encode = (part: Record<string, unknown>) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const signingInput = `${encode({ alg, typ: 'JWT', ...header })}.${encode(payload)}`;
  const signature = sign('sha256', Buffer.from(signingInput), alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key);
  return `${signingInput}.${signature.toString('base64url')}`;
}

/** When the vendor accepted the message: its Date header, else now. */
export function vendorDate(response: Pick<VendorResponse, 'header'>): string {
  const header = response.header('date');
  const at = header ? Date.parse(header) : NaN;
  return new Date(Number.isNaN(at) ? Date.now() : at).toISOString();
}
