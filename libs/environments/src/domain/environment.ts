import { hash, randomBytes } from 'node:crypto';

export interface Organization {
  id: string;
  name: string;
  createdAt: Date;
}

export interface Environment {
  id: string;
  organizationId: string;
  name: string;
  /** Public: the `applicationIdentifier` Novu's Inbox clients send (safe to ship in a web page). */
  identifier: string;
  /** The Inbox session requires subscriberHash = HMAC-SHA256(subscriberId) keyed with an API key of the environment. */
  inboxHmac: boolean;
  createdAt: Date;
}

/** 12 URL-safe characters, as Novu's application identifiers. */
export function generateEnvironmentIdentifier(): string {
  return randomBytes(9).toString('base64url');
}

/** As Novu: HMAC is off by default in Development only. */
export function defaultInboxHmac(environmentName: string): boolean {
  return environmentName !== 'Development';
}

/** Only the hash of a key is stored; `hint` (its last 4 characters) lets people tell keys apart. */
export interface ApiKey {
  id: string;
  organizationId: string;
  environmentId: string;
  hash: string;
  hint: string;
  /** The secret sealed by the ApiKeySealer (absent for keys made before it existed): checks Inbox subscriber hashes. */
  sealedSecret?: string;
  createdAt: Date;
}

export function generateApiKeySecret(): string {
  return randomBytes(24).toString('hex');
}

// Keys are long random strings, so a fast hash is enough (no password stretching needed). Every
// API request hashes its key: the one-shot `hash` gives createHash's digest without a Hash object.
export function hashApiKey(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function apiKeyHint(secret: string): string {
  return secret.slice(-4);
}
