import { IntegrationCredentials } from './integration';
import { ProviderDescription } from './provider-catalogue';
import { mergeCredentials } from './secrets';

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Required credential keys that are absent or blank, in the catalogue's order. */
export function missingCredentials(provider: ProviderDescription, credentials: IntegrationCredentials): string[] {
  return provider.requiredCredentials.filter((key) => isBlank(credentials[key]));
}

/** On create there is nothing stored, so only strip unset keys. */
export function cleanCredentials(credentials: Record<string, IntegrationCredentials[string] | null> | undefined): IntegrationCredentials {
  return mergeCredentials({}, credentials ?? {});
}
