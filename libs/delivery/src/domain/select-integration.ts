import { Channel, evaluateConditions } from '@app/kernel';

/** What selection needs to know of an integration (kept structural so the domain stays free of other contexts). */
export interface SelectableIntegration {
  id: string;
  identifier: string;
  channel: Channel;
  primary: boolean;
  /** Rank among the channel's active integrations, highest first (email and sms). */
  priority?: number;
  conditions: { isNegated?: boolean; value: 'AND' | 'OR'; children: { field: string; value: string; operator: string; on: string }[] }[];
  fallbacks?: string[];
}

/** What an integration's conditions are evaluated against (`on: tenant | subscriber | payload`). */
export interface SelectionContext {
  tenant?: Record<string, unknown>;
  subscriber?: Record<string, unknown>;
  payload?: Record<string, unknown>;
}

/** The integration identifier the trigger's overrides ask for, if any. */
export function requestedIntegrationIdentifier(overrides: Record<string, unknown>, channel: Channel): string | undefined {
  const channelOverrides = overrides[channel] as Record<string, unknown> | undefined;
  const fromChannel = channelOverrides?.integrationIdentifier;
  if (typeof fromChannel === 'string' && fromChannel) return fromChannel;
  const global = overrides.integrationIdentifier;
  return typeof global === 'string' && global ? global : undefined;
}

function matches(integration: SelectableIntegration, context: SelectionContext): boolean {
  return integration.conditions.length > 0 && evaluateConditions(integration.conditions, context as Record<string, unknown>).passed;
}

/**
 * Integration selection per channel (behaviour.md): the override's identifier, else an active
 * integration whose conditions match the delivery (tenant, subscriber or payload), else the
 * primary (email/sms) or the newest of those without conditions. `active` must already be active
 * integrations of the channel, newest first.
 */
export function selectIntegration<T extends SelectableIntegration>(
  active: T[],
  channel: Channel,
  overrides: Record<string, unknown>,
  context: SelectionContext,
): T | undefined {
  const requested = requestedIntegrationIdentifier(overrides, channel);
  if (requested) return active.find((integration) => integration.identifier === requested);
  const matching = active.find((integration) => matches(integration, context));
  if (matching) return matching;
  const unconditional = active.filter((integration) => integration.conditions.length === 0);
  return unconditional.find((integration) => integration.primary) ?? unconditional[0];
}

/**
 * Chat and push go to every credential entry the subscriber holds, among the integrations
 * selection allows: the override's identifier; else those whose conditions match the delivery
 * (when the subscriber holds an entry for one); else those without conditions. An integration
 * with conditions only serves the deliveries it matches, as in selectIntegration.
 * `held` says whether the subscriber has a credential entry for an integration.
 */
export function selectCredentialIntegrations<T extends SelectableIntegration>(
  active: T[],
  channel: Channel,
  overrides: Record<string, unknown>,
  context: SelectionContext,
  held: (integration: T) => boolean,
): T[] {
  const requested = requestedIntegrationIdentifier(overrides, channel);
  if (requested) return active.filter((integration) => integration.identifier === requested && held(integration));
  const candidates = active.filter(held);
  const matching = candidates.filter((integration) => matches(integration, context));
  if (matching.length) return matching;
  return candidates.filter((integration) => integration.conditions.length === 0);
}

/**
 * The integrations one delivery may go through, in order: the selected one, then its fallbacks,
 * each followed by its own (depth first). Only active integrations of `active` take part, and none
 * twice, so a cycle of fallbacks ends.
 */
export function failoverChain<T extends SelectableIntegration>(selected: T, active: T[]): T[] {
  const chain: T[] = [];
  const visit = (integration: T) => {
    if (chain.some((taken) => taken.id === integration.id)) return;
    chain.push(integration);
    for (const identifier of integration.fallbacks ?? []) {
      const next = active.find((candidate) => candidate.identifier === identifier);
      if (next) visit(next);
    }
  };
  visit(selected);
  return chain;
}

/**
 * Where a delivery goes when every integration of its chain is held (the vendor's pushback, an open
 * circuit) and the selected one has no fallbacks of its own: the channel's other active integrations
 * without conditions, in Novu's order (the primary, then by priority, then newest). None when the
 * trigger's overrides named the integration: the caller asked for that one. `active` newest first.
 */
export function standbyIntegrations<T extends SelectableIntegration>(chain: T[], active: T[], channel: Channel, overrides: Record<string, unknown>): T[] {
  if (!standbyAllowed(chain, channel, overrides)) return [];
  const others = active.filter(
    (integration) => integration.channel === channel && integration.conditions.length === 0 && !chain.some((taken) => taken.id === integration.id),
  );
  // Array.prototype.sort is stable: equal ranks stay newest first.
  return others.sort((a, b) => Number(b.primary) - Number(a.primary) || (b.priority ?? 0) - (a.priority ?? 0));
}

/** Whether a delivery through `chain` may go to the channel's other integrations at all (standbyIntegrations). */
export function standbyAllowed(chain: SelectableIntegration[], channel: Channel, overrides: Record<string, unknown>): boolean {
  return chain.length > 0 && !chain[0].fallbacks?.length && !requestedIntegrationIdentifier(overrides, channel);
}
