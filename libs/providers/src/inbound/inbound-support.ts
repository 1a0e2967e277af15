import { createHash, timingSafeEqual } from 'node:crypto';
import { InvalidWebhookSignatureError, MalformedWebhookBodyError, WEBHOOK_TOLERANCE_MS } from '@app/delivery';

/** What every vendor parser shares: constant-time comparison, the timestamp window, safe JSON reading. */

export function sameSecret(a: Buffer | string, b: Buffer | string): boolean {
  const left = Buffer.isBuffer(a) ? a : Buffer.from(a);
  const right = Buffer.isBuffer(b) ? b : Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The signing key, or a 401 saying which one to configure (never a 500). */
export function requireKey(key: string | undefined, what: string): string {
  if (!key) throw new InvalidWebhookSignatureError(`No ${what} is configured: set configurations.inboundWebhookSigningKey on the integration`);
  return key;
}

/** A signed time (seconds or an ISO date) within five minutes of now, else 401. */
export function requireFresh(signedAt: Date | undefined, now: Date): void {
  if (!signedAt || Number.isNaN(signedAt.getTime())) throw new InvalidWebhookSignatureError('The signature timestamp is missing or unreadable');
  if (Math.abs(now.getTime() - signedAt.getTime()) > WEBHOOK_TOLERANCE_MS)
    throw new InvalidWebhookSignatureError('The signature timestamp is more than 5 minutes from now');
}

export function secondsToDate(value: unknown): Date | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,12}(\.\d+)?$/.test(text)) return undefined;
  return new Date(Math.round(Number(text) * 1000));
}

export function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new MalformedWebhookBodyError('The body is not JSON');
  }
}

export function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** A vendor time (ISO text or epoch seconds), else `fallback`. */
export function dateOf(value: unknown, fallback: Date): Date {
  const seconds = secondsToDate(value);
  if (seconds) return seconds;
  if (typeof value === 'string') {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return fallback;
}

/** A stable key for a vendor event that carries no id of its own. */
export function hashKey(...parts: (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return `sha256:${hash.digest('hex')}`;
}

/** A message id with and without the angle brackets some vendors wrap it in. */
export function idSpellings(id: string | undefined): string[] {
  if (!id) return [];
  const bare = id.replace(/^<|>$/g, '');
  return [...new Set([id, bare, `<${bare}>`])];
}

/** A short excerpt for the execution detail: only these fields, strings cut short. */
export function excerpt(source: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = source[field];
    if (value === undefined || value === null) continue;
    out[field] =
      typeof value === 'string' ? value.slice(0, 300) : typeof value === 'number' || typeof value === 'boolean' ? value : JSON.stringify(value).slice(0, 300);
  }
  return out;
}

export function header(headers: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return value === undefined || value === '' ? undefined : value;
}
