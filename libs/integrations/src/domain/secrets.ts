import { IntegrationConfigurations, IntegrationCredentials } from './integration';

/**
 * The one catalogue of what in an integration is secret, and how it is shown:
 * - secret credential fields (`apiKey`, `token`, `password`, …): the first characters and `****`;
 * - any URL credential (`webhookUrl`, `baseUrl`, …): a password in its userinfo and the values of
 *   secret-looking query parameters (`?token=`, `?sig=`, `?api_key=`…) become `****`;
 * - `tlsOptions`: private key, passphrase, certificates (`key`, `passphrase`, `pfx`, `cert`, `ca`);
 * - `configurations.inboundWebhookSigningKey`.
 * A value sent back exactly as shown keeps the stored secret, so a client can send back what it read.
 */
export const SECRET_CREDENTIAL_KEYS: readonly string[] = [
  'apiKey',
  'apiToken',
  'secretKey',
  'token',
  'password',
  'serviceAccount',
  'accessKey',
  'signingSecret',
];
const SECRET_TLS_KEYS = new Set(['key', 'passphrase', 'pfx', 'cert', 'ca']);
const SECRET_CONFIGURATION_KEYS = new Set(['inboundWebhookSigningKey']);
const SECRET_QUERY_PARAMETER = /token|key|secret|sig|pass|auth|code|credential|session/i;

const MASK = '****';
/** Secrets shorter than this are masked completely: a visible prefix would give most of them away. */
const MIN_LENGTH_WITH_PREFIX = 8;
const VISIBLE_PREFIX = 4;

export function isSecretCredential(key: string): boolean {
  return SECRET_CREDENTIAL_KEYS.includes(key);
}

/** `SG.abcdef…` → `SG.a****`; short secrets become stars only. */
export function maskSecret(value: string): string {
  if (value.length < MIN_LENGTH_WITH_PREFIX) return '*'.repeat(Math.max(value.length, MASK.length));
  return value.slice(0, VISIBLE_PREFIX) + MASK;
}

/** A URL with its userinfo password and secret-looking query values masked; other strings unchanged. */
export function maskUrl(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  let changed = false;
  if (url.password) {
    url.password = MASK;
    changed = true;
  }
  for (const [name, parameter] of [...url.searchParams]) {
    if (parameter && SECRET_QUERY_PARAMETER.test(name)) {
      url.searchParams.set(name, MASK);
      changed = true;
    }
  }
  // URL encodes `*` in query values; show them as written.
  return changed ? url.toString().replace(/%2A%2A%2A%2A/g, MASK) : value;
}

function maskTlsOptions(options: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(options).map(([key, value]) => [key, SECRET_TLS_KEYS.has(key) && value !== undefined && value !== null ? MASK : value]),
  );
}

function maskCredential(key: string, value: IntegrationCredentials[string]): IntegrationCredentials[string] {
  if (typeof value === 'string') return isSecretCredential(key) ? maskSecret(value) : maskUrl(value);
  if (key === 'tlsOptions' && value && typeof value === 'object') return maskTlsOptions(value);
  return value;
}

/** The credentials as they may be shown anywhere (responses, errors, details, logs). */
export function maskCredentials(credentials: IntegrationCredentials): IntegrationCredentials {
  const masked: IntegrationCredentials = {};
  for (const [key, value] of Object.entries(credentials)) if (value !== undefined) masked[key] = maskCredential(key, value);
  return masked;
}

export function maskConfigurations(configurations: IntegrationConfigurations): IntegrationConfigurations {
  const masked: Record<string, unknown> = { ...configurations };
  for (const key of SECRET_CONFIGURATION_KEYS) if (typeof masked[key] === 'string') masked[key] = maskSecret(masked[key]);
  return masked;
}

/** Whether `sent` is exactly what the stored value is shown as (so the stored one is kept). */
function isEchoedMask(key: string, stored: unknown, sent: unknown): boolean {
  if (typeof stored === 'string' && typeof sent === 'string') {
    const shown = maskCredential(key, stored);
    return shown !== stored && sent === shown;
  }
  return false;
}

/**
 * Applies the credentials of an update to the stored ones: keys sent replace, keys left out stay,
 * `null` removes a key, and a secret sent back exactly as shown keeps the stored secret (inside
 * `tlsOptions` too, key by key).
 */
export function mergeCredentials(stored: IntegrationCredentials, update: Record<string, IntegrationCredentials[string] | null>): IntegrationCredentials {
  const merged: IntegrationCredentials = { ...stored };
  for (const [key, value] of Object.entries(update)) {
    if (value === undefined) continue;
    if (value === null) {
      delete merged[key];
      continue;
    }
    const previous = stored[key];
    if (key === 'tlsOptions' && value && typeof value === 'object' && previous && typeof previous === 'object') {
      merged[key] = Object.fromEntries(
        Object.entries(value).map(([name, sent]) => [name, SECRET_TLS_KEYS.has(name) && sent === MASK && previous[name] !== undefined ? previous[name] : sent]),
      );
      continue;
    }
    if (!isEchoedMask(key, previous, value)) merged[key] = value;
  }
  return merged;
}

/** Configurations of an update: a signing key sent back as shown keeps the stored one. */
export function mergeConfigurations(stored: IntegrationConfigurations, update: IntegrationConfigurations): IntegrationConfigurations {
  const merged: Record<string, unknown> = { ...update };
  for (const key of SECRET_CONFIGURATION_KEYS) {
    const previous = (stored as Record<string, unknown>)[key];
    if (typeof previous === 'string' && merged[key] === maskSecret(previous)) merged[key] = previous;
  }
  return merged;
}

/** Every secret value of these credentials and configurations, for masking wherever text may repeat them. */
export function secretValues(credentials: IntegrationCredentials, configurations: IntegrationConfigurations = {}): string[] {
  const values: string[] = [];
  for (const [key, value] of Object.entries(credentials)) {
    if (typeof value === 'string' && isSecretCredential(key)) values.push(value);
    if (typeof value === 'string' && maskUrl(value) !== value) values.push(value);
    if (key === 'tlsOptions' && value && typeof value === 'object') {
      for (const [name, item] of Object.entries(value)) if (SECRET_TLS_KEYS.has(name) && typeof item === 'string') values.push(item);
    }
  }
  for (const key of SECRET_CONFIGURATION_KEYS) {
    const value = (configurations as Record<string, unknown>)[key];
    if (typeof value === 'string') values.push(value);
  }
  return values;
}
