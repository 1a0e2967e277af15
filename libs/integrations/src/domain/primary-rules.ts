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

/** The part of an integration these rules look at. */
export interface RankedIntegration {
  id: string;
  primary: boolean;
  priority: number;
  createdAt: Date;
}

/** A new primary flag and priority for another integration of the same channel. */
export interface PriorityChange {
  id: string;
  primary: boolean;
  priority: number;
}

export interface Placement {
  primary: boolean;
  priority: number;
  /** What must change on the other integrations. */
  changes: PriorityChange[];
}

const NOT_RANKED: Placement = { primary: false, priority: 0, changes: [] };

function highestPriority(integrations: RankedIntegration[]): RankedIntegration | undefined {
  return integrations.reduce<RankedIntegration | undefined>((top, i) => (!top || i.priority > top.priority ? i : top), undefined);
}

/**
 * A newly active integration slots in under the primary (taking its priority and bumping it one
 * up), or else goes on top. Only a create may make it primary, and only the first active
 * integration of the channel: one active already, primary or not, keeps the new one from it.
 * The caller renumbers the channel afterwards (`renumberPriorities`).
 */
function placeActive(activeOthers: RankedIntegration[], mayBecomePrimary: boolean): Placement {
  const top = highestPriority(activeOthers);
  if (top?.primary) {
    return { primary: false, priority: top.priority, changes: [{ id: top.id, primary: true, priority: top.priority + 1 }] };
  }
  return { primary: mayBecomePrimary && activeOthers.length === 0, priority: top ? top.priority + 1 : 1, changes: [] };
}

/**
 * Primary flag and priority of a new integration. Inactive ones and channels without a primary
 * get `primary: false, priority: 0`. One created with conditions is not made primary (a primary
 * with conditions loses the flag, so it would be lost at once).
 */
export function placeOnCreate(integration: { channel: Channel; active: boolean; hasConditions: boolean }, activeOthers: RankedIntegration[]): Placement {
  if (!channelHasPrimary(integration.channel) || !integration.active) return NOT_RANKED;
  return placeActive(activeOthers, !integration.hasConditions);
}

/** An inactive integration turned active gets a priority again; its primary flag is left as is. */
export function placeOnActivation(channel: Channel, primary: boolean, activeOthers: RankedIntegration[]): Placement {
  if (!channelHasPrimary(channel)) return NOT_RANKED;
  const placed = placeActive(activeOthers, false);
  return { ...placed, primary };
}

/** Deactivating clears the primary flag and the priority; the others are then renumbered. */
export function placeOnDeactivation(): Placement {
  return NOT_RANKED;
}

/** Conditions are for picking an integration by tenant, so a primary given conditions stops being primary. */
export function primaryAfterConditions(primary: boolean, conditionCount: number): boolean {
  return primary && conditionCount === 0;
}

/**
 * The one invariant of a channel's active integrations, restored after every create, activation,
 * deactivation, deletion and conditions change: priorities n…1, unique and contiguous, with at
 * most one primary, on top. Order: the primary first, then by current priority, then newest
 * first; a second primary (never made by these rules, but possible in old data) loses the flag.
 * Answers only the integrations that change.
 */
export function renumberPriorities(active: RankedIntegration[]): PriorityChange[] {
  const ordered = [...active].sort(
    (a, b) =>
      Number(b.primary) - Number(a.primary) ||
      b.priority - a.priority ||
      b.createdAt.getTime() - a.createdAt.getTime() ||
      (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
  return ordered
    .map((integration, index) => ({ integration, priority: ordered.length - index, primary: integration.primary && index === 0 }))
    .filter(({ integration, priority, primary }) => integration.priority !== priority || integration.primary !== primary)
    .map(({ integration, priority, primary }) => ({ id: integration.id, primary, priority }));
}
