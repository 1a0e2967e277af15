import { identifierProblem } from '@app/kernel';
/** The recipients of a trigger, parsed from Novu's `to` union. */
export interface InlineSubscriber {
  subscriberId: string;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  phone?: string | null;
  avatar?: string | null;
  locale?: string | null;
  timezone?: string | null;
  data?: Record<string, unknown> | null;
  channels?: { providerId: string; integrationIdentifier?: string; credentials: Record<string, unknown> }[];
}

export interface TopicRecipient {
  topicKey: string;
  exclude: string[];
}

export interface ParsedRecipients {
  /** De-duplicated by subscriberId; the last object for an id wins. */
  subscribers: InlineSubscriber[];
  topics: TopicRecipient[];
}

/** A trigger's tenant: its identifier, and what to upsert it with. */
export interface TenantRecipient {
  identifier: string;
  name?: string;
  data?: Record<string, unknown>;
}

export const MAX_RECIPIENTS = 100;
const SUBSCRIBER_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone'] as const;

export type RecipientProblems = Record<string, string[]>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses `to` (a string, a subscriber object, a topic or an array of them); problems are keyed by field path. */
export function parseRecipients(to: unknown): { recipients: ParsedRecipients; problems: RecipientProblems } {
  const problems: RecipientProblems = {};
  const problem = (path: string, message: string) => (problems[path] ??= []).push(message);
  const subscribers = new Map<string, InlineSubscriber>();
  const topics: TopicRecipient[] = [];
  const items = Array.isArray(to) ? to : [to];
  if (to === undefined || to === null || items.length === 0) problem('to', 'to should not be empty');
  if (items.length > MAX_RECIPIENTS) problem('to', `to must contain at most ${MAX_RECIPIENTS} recipients`);

  items.forEach((item, index) => {
    const path = Array.isArray(to) ? `to.${index}` : 'to';
    if (typeof item === 'string') {
      const invalid = identifierProblem(item, 'a subscriberId');
      if (invalid) return problem(path, invalid);
      subscribers.set(item, { ...subscribers.get(item), subscriberId: item });
      return;
    }
    if (!isObject(item)) return problem(path, 'must be a subscriberId string, a subscriber object or a topic');
    if (item.type === 'Topic') {
      if (typeof item.topicKey !== 'string' || !item.topicKey) return problem(`${path}.topicKey`, 'topicKey must be a non-empty string');
      const invalidKey = identifierProblem(item.topicKey, 'topicKey');
      if (invalidKey) return problem(`${path}.topicKey`, invalidKey);
      const exclude = item.exclude ?? [];
      if (!Array.isArray(exclude) || exclude.some((id) => typeof id !== 'string' || identifierProblem(id, 'subscriberId')) || exclude.length > MAX_RECIPIENTS) {
        return problem(`${path}.exclude`, `exclude must be an array of at most ${MAX_RECIPIENTS} subscriberIds`);
      }
      topics.push({ topicKey: item.topicKey, exclude: exclude as string[] });
      return;
    }
    if (typeof item.subscriberId !== 'string' || !item.subscriberId.trim()) {
      return problem(`${path}.subscriberId`, 'subscriberId must be a non-empty string (topics need type: "Topic")');
    }
    const invalidId = identifierProblem(item.subscriberId, 'subscriberId');
    if (invalidId) return problem(`${path}.subscriberId`, invalidId);
    const subscriber: InlineSubscriber = { subscriberId: item.subscriberId };
    for (const field of SUBSCRIBER_FIELDS) {
      const value = item[field];
      if (value === undefined) continue;
      if (value !== null && typeof value !== 'string') problem(`${path}.${field}`, `${field} must be a string or null`);
      else subscriber[field] = value;
    }
    if (item.data !== undefined) {
      if (item.data !== null && !isObject(item.data)) problem(`${path}.data`, 'data must be an object');
      else subscriber.data = item.data;
    }
    if (item.channels !== undefined) {
      const channels = item.channels;
      if (!Array.isArray(channels) || channels.some((c) => !isObject(c) || typeof c.providerId !== 'string' || !isObject(c.credentials))) {
        problem(`${path}.channels`, 'channels must be an array of {providerId, integrationIdentifier?, credentials}');
      } else subscriber.channels = channels as InlineSubscriber['channels'];
    }
    subscribers.set(subscriber.subscriberId, subscriber);
  });
  return { recipients: { subscribers: [...subscribers.values()], topics }, problems };
}

/** `actor`: a subscriberId or a subscriber object. */
export function parseActor(actor: unknown): { actor?: InlineSubscriber; problems: RecipientProblems } {
  if (actor === undefined || actor === null) return { problems: {} };
  if (typeof actor === 'string') {
    const invalid = identifierProblem(actor, 'actor');
    return invalid ? { problems: { actor: [invalid] } } : { actor: { subscriberId: actor }, problems: {} };
  }
  const { recipients, problems } = parseRecipients(actor);
  const renamed: RecipientProblems = {};
  for (const [path, messages] of Object.entries(problems)) renamed[path.replace(/^to/, 'actor')] = messages;
  if (recipients.topics.length) renamed.actor = ['actor must be a subscriber, not a topic'];
  return { actor: recipients.subscribers[0], problems: renamed };
}

/** `tenant`: an identifier or `{identifier, name?, data?}`. */
export function parseTenant(tenant: unknown): { tenant?: TenantRecipient; problems: RecipientProblems } {
  if (tenant === undefined || tenant === null) return { problems: {} };
  if (typeof tenant === 'string') {
    const invalid = identifierProblem(tenant, 'tenant');
    return invalid ? { problems: { tenant: [invalid] } } : { tenant: { identifier: tenant }, problems: {} };
  }
  if (!isObject(tenant) || typeof tenant.identifier !== 'string' || !tenant.identifier) {
    return { problems: { 'tenant.identifier': ['tenant must be an identifier or an object with a non-empty identifier'] } };
  }
  const invalidIdentifier = identifierProblem(tenant.identifier, 'tenant.identifier');
  if (invalidIdentifier) return { problems: { 'tenant.identifier': [invalidIdentifier] } };
  if (tenant.name !== undefined && typeof tenant.name !== 'string') return { problems: { 'tenant.name': ['name must be a string'] } };
  if (tenant.data !== undefined && !isObject(tenant.data)) return { problems: { 'tenant.data': ['data must be an object'] } };
  return { tenant: { identifier: tenant.identifier, name: tenant.name, data: tenant.data }, problems: {} };
}
