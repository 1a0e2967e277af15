import { Channel, Condition } from '@app/kernel';
import { missingCredentials } from './credentials';
import { InvalidFallbacksError, MissingCredentialsError, ProviderChannelMismatchError, UnknownProviderError } from './errors';
import { Integration, IntegrationCredentials } from './integration';
import { ProviderDescription, findProvider } from './provider-catalogue';
import { RankedIntegration } from './primary-rules';

/** The catalogue entry for a provider id, which must serve the channel asked for. */
export function resolveProvider(providerId: string, channel: Channel): ProviderDescription {
  const provider = findProvider(providerId);
  if (!provider) throw new UnknownProviderError(providerId);
  if (provider.channel !== channel) throw new ProviderChannelMismatchError(providerId, channel, provider.channel);
  return provider;
}

/** An active integration must carry the provider's required credentials. */
export function assertCredentialsForActive(provider: ProviderDescription, credentials: IntegrationCredentials): void {
  const missing = missingCredentials(provider, credentials);
  if (missing.length) throw new MissingCredentialsError(provider.id, missing);
}

/** Stored conditions always have every field Novu's schema requires (isNegated, type, value, children). */
export function normalizeConditions(conditions: Condition[] | undefined): Condition[] {
  return (conditions ?? []).map((condition) => ({
    isNegated: condition.isNegated ?? false,
    type: condition.type ?? 'BOOLEAN',
    value: condition.value,
    children: condition.children.map(({ field, value, operator, on }) => ({ field, value, operator, on })),
  }));
}

export function toRanked(integration: Integration): RankedIntegration {
  return {
    id: integration.id,
    primary: integration.primary,
    priority: integration.priority,
    createdAt: integration.createdAt,
    updatedAt: integration.updatedAt,
  };
}

export const MAX_FALLBACKS = 5;

/**
 * Fallbacks as stored: identifiers of other live integrations of the same channel, in order,
 * without repeats. Cycles (A → B → A) are allowed: delivery never tries one integration twice.
 */
export function validateFallbacks(
  fallbacks: string[],
  integration: Pick<Integration, 'identifier' | 'channel'>,
  environmentIntegrations: Pick<Integration, 'identifier' | 'channel'>[],
): string[] {
  const unique = [...new Set(fallbacks)];
  const problems: string[] = [];
  if (unique.length > MAX_FALLBACKS) problems.push(`at most ${MAX_FALLBACKS} fallbacks`);
  for (const identifier of unique) {
    const found = environmentIntegrations.find((candidate) => candidate.identifier === identifier);
    if (identifier === integration.identifier) problems.push(`${identifier} is the integration itself`);
    else if (!found) problems.push(`no integration ${identifier} in this environment`);
    else if (found.channel !== integration.channel) problems.push(`${identifier} is a ${found.channel} integration, not ${integration.channel}`);
  }
  if (problems.length) throw new InvalidFallbacksError(problems, fallbacks);
  return unique;
}
