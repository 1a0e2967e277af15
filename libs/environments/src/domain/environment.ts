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
  /** Hex colour the dashboard shows the environment in (`#RRGGBB`). */
  color?: string;
  /** The environment it is published from, as Novu's Production has Development. */
  parentId?: string;
  createdAt: Date;
}

/** What an environment update may change. */
export type EnvironmentChanges = Partial<Pick<Environment, 'name' | 'color' | 'parentId'>>;

/** Novu's environment colours are `#RGB` or `#RRGGBB` hex codes. */
export const ENVIRONMENT_COLOR_PATTERN = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** The environment the first start makes, and publishing's default source. */
export const DEVELOPMENT_ENVIRONMENT = 'Development';

/** Novu's environment type: Development is `dev`, every other environment `prod`. */
export function environmentType(environment: Pick<Environment, 'name'>): 'dev' | 'prod' {
  return environment.name === DEVELOPMENT_ENVIRONMENT ? 'dev' : 'prod';
}

/** 12 URL-safe characters, as Novu's application identifiers. */
export function generateEnvironmentIdentifier(): string {
  return randomBytes(9).toString('base64url');
}

/** As Novu: HMAC is off by default in Development only. */
export function defaultInboxHmac(environmentName: string): boolean {
  return environmentName !== DEVELOPMENT_ENVIRONMENT;
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

/**
 * Why `parentId` cannot be the parent of environment `selfId` among the organization's environments
 * (undefined: it can): it must be another of them, and no environment may end up its own ancestor.
 */
export function parentProblem(organizationEnvironments: Pick<Environment, 'id' | 'parentId'>[], selfId: string, parentId: string): string | undefined {
  const byId = new Map(organizationEnvironments.map((e) => [e.id, e]));
  if (parentId === selfId) return 'is the environment itself';
  if (!byId.has(parentId)) return 'is not an environment of this organization';
  for (let at = byId.get(parentId); at?.parentId; at = byId.get(at.parentId)) {
    if (at.parentId === selfId) return 'has this environment among its parents';
  }
  return undefined;
}
