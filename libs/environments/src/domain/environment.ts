import { createHash, randomBytes } from 'node:crypto';

export interface Organization {
  id: string;
  name: string;
  createdAt: Date;
}

export interface Environment {
  id: string;
  organizationId: string;
  name: string;
  createdAt: Date;
}

/** Only the hash of a key is stored; `hint` (its last 4 characters) lets people tell keys apart. */
export interface ApiKey {
  id: string;
  organizationId: string;
  environmentId: string;
  hash: string;
  hint: string;
  createdAt: Date;
}

export function generateApiKeySecret(): string {
  return randomBytes(24).toString('hex');
}

// Keys are long random strings, so a fast hash is enough (no password stretching needed).
export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function apiKeyHint(secret: string): string {
  return secret.slice(-4);
}
