import { IntegrationCredentials } from './integration';
import { ProviderDescription, isSecretCredential } from './provider-catalogue';

const MASK = '****';
/** Secrets shorter than this are masked completely: a visible prefix would give most of them away. */
const MIN_LENGTH_WITH_PREFIX = 8;
const VISIBLE_PREFIX = 4;

/** `SG.abcdef…` → `SG.a****`; short secrets become stars only. */
export function maskSecret(value: string): string {
  if (value.length < MIN_LENGTH_WITH_PREFIX) return '*'.repeat(Math.max(value.length, MASK.length));
  return value.slice(0, VISIBLE_PREFIX) + MASK;
}

/** The credentials as they may be shown: secret fields masked, everything else as stored. */
export function maskCredentials(credentials: IntegrationCredentials): IntegrationCredentials {
  const masked: IntegrationCredentials = {};
  for (const [key, value] of Object.entries(credentials)) {
    if (value === undefined) continue;
    masked[key] = isSecretCredential(key) && typeof value === 'string' ? maskSecret(value) : value;
  }
  return masked;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Required credential keys that are absent or blank, in the catalogue's order. */
export function missingCredentials(provider: ProviderDescription, credentials: IntegrationCredentials): string[] {
  return provider.requiredCredentials.filter((key) => isBlank(credentials[key]));
}

/**
 * Applies the credentials of an update to the stored ones: keys sent replace, keys left out stay,
 * `null` removes a key, and a secret sent back exactly as we masked it keeps the stored secret
 * (so a client can send back what it read).
 */
export function mergeCredentials(
  stored: IntegrationCredentials,
  update: Record<string, IntegrationCredentials[string] | null>,
): IntegrationCredentials {
  const merged: IntegrationCredentials = { ...stored };
  for (const [key, value] of Object.entries(update)) {
    if (value === undefined) continue;
    if (value === null) {
      delete merged[key];
      continue;
    }
    const previous = stored[key];
    const isEchoedMask = isSecretCredential(key) && typeof previous === 'string' && value === maskSecret(previous);
    if (!isEchoedMask) merged[key] = value;
  }
  return merged;
}

/** On create there is nothing stored, so only strip unset keys. */
export function cleanCredentials(credentials: Record<string, IntegrationCredentials[string] | null> | undefined): IntegrationCredentials {
  return mergeCredentials({}, credentials ?? {});
}
