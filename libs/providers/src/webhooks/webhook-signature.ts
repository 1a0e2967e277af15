import { createHmac, timingSafeEqual } from 'node:crypto';

/** Novu's outgoing webhook signature header. */
export const SIGNATURE_HEADER = 'X-Novu-Signature';

/** Hex HMAC-SHA256 of the exact body bytes, keyed by the integration's secretKey. */
export function signWebhookBody(rawBody: string | Buffer, secretKey: string): string {
  return createHmac('sha256', secretKey).update(rawBody).digest('hex');
}

/** For receivers (and tests): constant-time check of a signature header. */
export function verifyWebhookSignature(rawBody: string | Buffer, secretKey: string, signature: string | undefined): boolean {
  if (!signature) return false;
  const expected = Buffer.from(signWebhookBody(rawBody, secretKey), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
