import { Channel, Condition } from '@app/kernel';
import { missingCredentials } from './credentials';
import { MissingCredentialsError, ProviderChannelMismatchError, UnknownProviderError } from './errors';
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
  return { id: integration.id, primary: integration.primary, priority: integration.priority, createdAt: integration.createdAt };
}
