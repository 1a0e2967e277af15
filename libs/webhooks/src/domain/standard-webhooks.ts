import { createHmac, randomBytes } from 'node:crypto';

/** A fresh signing secret in Standard Webhooks' (and Svix's) format: `whsec_` + base64 key bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The `webhook-signature` value of one delivery (Standard Webhooks, as Svix signs): for each secret,
 * `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` keyed with the secret's decoded bytes,
 * space-separated when several secrets sign (a rotation's grace period).
 */
export function signatureHeader(secrets: string[], id: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

/** The headers of one signed delivery: Standard Webhooks' names, and the same values under Svix's. */
export function signedHeaders(secrets: string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  const signature = signatureHeader(secrets, id, timestampSeconds, body);
  const timestamp = String(timestampSeconds);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': signature,
    'svix-id': id,
    'svix-timestamp': timestamp,
    'svix-signature': signature,
  };
}
