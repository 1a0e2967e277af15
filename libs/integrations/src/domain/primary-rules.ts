import { Channel } from '@app/kernel';

/**
 * Novu's primary/priority rules (novu-semantics.md §5). Only email and sms have a primary: the
 * integration used when no condition or identifier picks another. Priorities order the active
 * integrations of one channel in one environment, highest first, the primary on top.
 */
export const CHANNELS_WITH_PRIMARY: readonly Channel[] = ['email', 'sms'];

export function channelHasPrimary(channel: Channel): boolean {
  return CHANNELS_WITH_PRIMARY.includes(channel);
}

/** The part of an integration these rules look at, as stored. */
export interface RankedIntegration {
  id: string;
  primary: boolean;
  priority: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A new primary flag and priority for an integration, and the updatedAt the change gives it. */
export interface PriorityChange {
  id: string;
  primary: boolean;
  priority: number;
  updatedAt: Date;
}

/**
 * Why a channel is ranked again: its active integrations changed (`renumber`: one left, lost its
 * primary flag, or is back in place), one became active (`placed`: a create or an activation, written
 * with priority 0), or one is made the primary (`primary`: set-primary).
 */
export type RankingEvent = { kind: 'renumber' } | { kind: 'placed'; id: string; mayBecomePrimary: boolean } | { kind: 'primary'; id: string };

/** A write's updatedAt: strictly later than the one read, so a compare-and-set on it always sees the write. */
export function nextUpdatedAt(now: Date, updatedAt: Date): Date {
  return new Date(Math.max(now.getTime(), updatedAt.getTime() + 1));
}

/**
 * The newly active integration `id` slots in under the primary (taking its priority and bumping it
 * one up), or else goes on top. It becomes primary only when it may (a create without conditions)
 * and no other active integration of the channel is ranked yet: the first of the channel. Others
 * not ranked yet (priority 0) are newly active ones whose own ranking comes.
 */
function place(active: RankedIntegration[], id: string, mayBecomePrimary: boolean): RankedIntegration[] {
  const others = active.filter((integration) => integration.id !== id);
  const top = others.reduce<RankedIntegration | undefined>((highest, i) => (!highest || i.priority > highest.priority ? i : highest), undefined);
  return active.map((integration) => {
    if (top?.primary && integration.id === top.id) return { ...integration, priority: top.priority + 1 };
    if (integration.id !== id) return integration;
    if (top?.primary) return { ...integration, priority: top.priority };
    const first = mayBecomePrimary && others.every((other) => other.priority === 0);
    return { ...integration, primary: integration.primary || first, priority: (top?.priority ?? 0) + 1 };
  });
}

/**
 * The one invariant of a channel's active integrations, restored by every ranking: priorities n…1,
 * unique and contiguous, with at most one primary, on top. Order: the primary first, then by
 * priority, then newest first; a second primary (never made by these rules, but possible in old
 * data) loses the flag. `active` is the channel's active integrations as stored; the answer is what
 * changes, each change moving its integration's updatedAt past `now`.
 */
export function rankChannel(active: RankedIntegration[], event: RankingEvent, now: Date): PriorityChange[] {
  const moved =
    event.kind === 'placed'
      ? place(active, event.id, event.mayBecomePrimary)
      : event.kind === 'primary'
        ? active.map((integration) => ({ ...integration, primary: integration.id === event.id }))
        : active;
  const ordered = [...moved].sort(
    (a, b) =>
      Number(b.primary) - Number(a.primary) ||
      b.priority - a.priority ||
      b.createdAt.getTime() - a.createdAt.getTime() ||
      (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
  const stored = new Map(active.map((integration) => [integration.id, integration]));
  return ordered
    .map((integration, index) => ({ was: stored.get(integration.id)!, primary: integration.primary && index === 0, priority: ordered.length - index }))
    .filter(({ was, priority, primary }) => was.priority !== priority || was.primary !== primary)
    .map(({ was, primary, priority }) => ({ id: was.id, primary, priority, updatedAt: nextUpdatedAt(now, was.updatedAt) }));
}

/** The ranking `changes` make of `active` (what the store holds once they are written). */
export function applyRanking(active: RankedIntegration[], changes: PriorityChange[]): RankedIntegration[] {
  const changed = new Map(changes.map((change) => [change.id, change]));
  return active.map((integration) => ({ ...integration, ...changed.get(integration.id) }));
}

/** Conditions are for picking an integration by tenant, so a primary given conditions stops being primary. */
export function primaryAfterConditions(primary: boolean, conditionCount: number): boolean {
  return primary && conditionCount === 0;
}
