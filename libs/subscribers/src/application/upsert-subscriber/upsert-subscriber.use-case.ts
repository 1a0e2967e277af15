import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, newId } from '@app/kernel';
import { Subscriber } from '../../domain/subscriber';
import { SubscriberChanges, definedChanges } from '../../domain/subscriber-changes';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';

export interface UpsertSubscriberCommand {
  scope: EnvironmentScope;
  subscriberId: string;
  changes: SubscriberChanges;
}

/**
 * An inline subscriber (trigger `to`, `actor`): created when missing, else only the fields given
 * change (null clears) — one atomic store operation, so concurrent triggers never duplicate it.
 */
@Injectable()
export class UpsertSubscriber {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, subscriberId, changes }: UpsertSubscriberCommand): Promise<{ subscriber: Subscriber; created: boolean }> {
    const now = this.clock.now();
    return this.subscribers.upsert(scope, { id: newId(now.getTime()), subscriberId, changes: definedChanges(changes), now });
  }
}

export interface UpsertSubscribersCommand {
  scope: EnvironmentScope;
  subscribers: { subscriberId: string; changes: SubscriberChanges }[];
}

/** Entries of one subscriberId as one change (later fields win), in first-seen order. */
export function mergeBySubscriberId(subscribers: { subscriberId: string; changes: SubscriberChanges }[]): Map<string, SubscriberChanges> {
  const merged = new Map<string, SubscriberChanges>();
  for (const { subscriberId, changes } of subscribers) {
    merged.set(subscriberId, { ...(merged.get(subscriberId) ?? {}), ...definedChanges(changes) });
  }
  return merged;
}

/**
 * Many inline subscribers at once (fan-out batches). Entries of one subscriberId are merged first
 * (later fields win, as Novu's "last object wins"); results come back in first-seen order.
 */
@Injectable()
export class UpsertSubscribers {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, subscribers }: UpsertSubscribersCommand): Promise<{ subscriber: Subscriber; created: boolean }[]> {
    const merged = mergeBySubscriberId(subscribers);
    const now = this.clock.now();
    return Promise.all([...merged].map(([subscriberId, changes]) => this.subscribers.upsert(scope, { id: newId(now.getTime()), subscriberId, changes, now })));
  }
}
