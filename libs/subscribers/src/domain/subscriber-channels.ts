import { ChannelCredentials, SubscriberChannel } from './subscriber';
import { DeviceTokensLimitExceededError } from './errors';

export const MAX_DEVICE_TOKENS_PER_CHANNEL = 100;

/** `replace` (PUT) swaps the device tokens for the new list; `append` (PATCH) keeps the union. */
export type CredentialsUpdateMode = 'replace' | 'append';

export interface ChannelCredentialsUpdate {
  providerId: string;
  integrationId: string;
  integrationIdentifier?: string;
  credentials: ChannelCredentials;
}

const unique = (tokens: string[]) => [...new Set(tokens)];

/**
 * The subscriber's channels after one credentials update. The entry is matched on providerId and
 * integrationId (a new one is added otherwise); credentials are shallow-merged over the stored ones.
 * Unlike Novu, credentials that leave out `deviceTokens` keep the stored tokens; an explicit `[]` clears them.
 */
export function applyChannelCredentials(channels: SubscriberChannel[], update: ChannelCredentialsUpdate, mode: CredentialsUpdateMode): SubscriberChannel[] {
  const index = channels.findIndex((c) => c.providerId === update.providerId && c.integrationId === update.integrationId);
  const existing = index >= 0 ? channels[index] : undefined;
  const stored = existing?.credentials ?? {};
  const incoming = withoutUndefined(update.credentials);
  const credentials: ChannelCredentials = { ...stored, ...incoming };

  if (incoming.deviceTokens === undefined) {
    if (stored.deviceTokens !== undefined) credentials.deviceTokens = stored.deviceTokens;
  } else if (mode === 'append' && incoming.deviceTokens.length > 0) {
    credentials.deviceTokens = unique([...(stored.deviceTokens ?? []), ...incoming.deviceTokens]);
  } else {
    credentials.deviceTokens = unique(incoming.deviceTokens);
  }
  const tokenCount = credentials.deviceTokens?.length ?? 0;
  if (tokenCount > MAX_DEVICE_TOKENS_PER_CHANNEL) throw new DeviceTokensLimitExceededError(tokenCount, MAX_DEVICE_TOKENS_PER_CHANNEL);

  const integrationIdentifier = update.integrationIdentifier ?? existing?.integrationIdentifier;
  const entry: SubscriberChannel = {
    providerId: update.providerId,
    integrationId: update.integrationId,
    ...(integrationIdentifier !== undefined ? { integrationIdentifier } : {}),
    credentials,
  };
  return index >= 0 ? channels.map((c, i) => (i === index ? entry : c)) : [...channels, entry];
}

/**
 * Integration provider ids that can carry credentials sent for `providerId`, best first.
 * `service-slack` (the interface's name) and `novu-slack` (Novu's managed app) are Slack-compatible,
 * so a plain `slack` integration serves them when there is none of their own.
 */
export function credentialProviderCandidates(providerId: string): string[] {
  return providerId === 'service-slack' || providerId === 'novu-slack' ? [providerId, 'slack'] : [providerId];
}

/** The channels without any entry of that provider (or of the integration providers serving it). */
export function removeProviderChannels(channels: SubscriberChannel[], providerId: string): SubscriberChannel[] {
  const providers = new Set(credentialProviderCandidates(providerId));
  return channels.filter((c) => !providers.has(c.providerId));
}

/** Structural equality of two channel lists (key order does not matter), so a no-op update writes nothing. */
export function sameChannels(a: SubscriberChannel[], b: SubscriberChannel[]): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
