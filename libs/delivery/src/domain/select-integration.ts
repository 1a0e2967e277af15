import { Channel, evaluateConditions } from '@app/kernel';

/** What selection needs to know of an integration (kept structural so the domain stays free of other contexts). */
export interface SelectableIntegration {
  id: string;
  identifier: string;
  channel: Channel;
  primary: boolean;
  conditions: { isNegated?: boolean; value: 'AND' | 'OR'; children: { field: string; value: string; operator: string; on: string }[] }[];
}

/** The integration identifier the trigger's overrides ask for, if any. */
export function requestedIntegrationIdentifier(overrides: Record<string, unknown>, channel: Channel): string | undefined {
  const channelOverrides = overrides[channel] as Record<string, unknown> | undefined;
  const fromChannel = channelOverrides?.integrationIdentifier;
  if (typeof fromChannel === 'string' && fromChannel) return fromChannel;
  const global = overrides.integrationIdentifier;
  return typeof global === 'string' && global ? global : undefined;
}

/**
 * Integration selection per channel (behaviour.md): the override's identifier, else an active
 * integration whose conditions match the tenant, else the primary (email/sms) or the newest.
 * `active` must already be active integrations of the channel, newest first.
 */
export function selectIntegration<T extends SelectableIntegration>(
  active: T[],
  channel: Channel,
  overrides: Record<string, unknown>,
  tenant: Record<string, unknown> | undefined,
): T | undefined {
  const requested = requestedIntegrationIdentifier(overrides, channel);
  if (requested) return active.find((integration) => integration.identifier === requested);
  if (tenant) {
    const matching = active.find(
      (integration) => integration.conditions.length > 0 && evaluateConditions(integration.conditions as never, { tenant }).passed,
    );
    if (matching) return matching;
  }
  const unconditional = active.filter((integration) => integration.conditions.length === 0);
  return unconditional.find((integration) => integration.primary) ?? unconditional[0];
}

/**
 * Chat and push go to every credential entry the subscriber holds, among the integrations
 * selection allows: the override's identifier; else, with a tenant, those whose conditions match
 * it (when the subscriber holds an entry for one); else those without conditions. An integration
 * with conditions is only for the tenants it names, as in selectIntegration.
 * `held` says whether the subscriber has a credential entry for an integration.
 */
export function selectCredentialIntegrations<T extends SelectableIntegration>(
  active: T[],
  channel: Channel,
  overrides: Record<string, unknown>,
  tenant: Record<string, unknown> | undefined,
  held: (integration: T) => boolean,
): T[] {
  const requested = requestedIntegrationIdentifier(overrides, channel);
  if (requested) return active.filter((integration) => integration.identifier === requested && held(integration));
  const candidates = active.filter(held);
  if (tenant) {
    const matching = candidates.filter(
      (integration) => integration.conditions.length > 0 && evaluateConditions(integration.conditions as never, { tenant }).passed,
    );
    if (matching.length) return matching;
  }
  return candidates.filter((integration) => integration.conditions.length === 0);
}
