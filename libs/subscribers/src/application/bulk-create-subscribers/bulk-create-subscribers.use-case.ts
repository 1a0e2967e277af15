import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, StoreRejectedError, newId } from '@app/kernel';
import { SubscriberChanges } from '../../domain/subscriber-changes';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';
import { mergeBySubscriberId } from '../upsert-subscriber/upsert-subscriber.use-case';

/** Novu's limit of POST /v1/subscribers/bulk. */
export const MAX_BULK_SUBSCRIBERS = 500;

/** Upserts at once: enough to keep a PostgreSQL pool busy without queueing 500 statements on it. */
const CONCURRENCY = 25;

export interface BulkCreateSubscribersCommand {
  scope: EnvironmentScope;
  subscribers: { subscriberId: string; changes: SubscriberChanges }[];
}

export interface BulkCreateSubscribersResult {
  /** subscriberIds, one per entry, in the order given. */
  created: string[];
  updated: string[];
  failed: { subscriberId: string; message: string }[];
}

/**
 * POST /v1/subscribers/bulk, as Novu: each entry creates its subscriber or sets the fields it gives on
 * the existing one. Entries of one subscriberId are applied as one upsert (later fields win); the first
 * of them counts as created when the subscriber is new, the others as updated. A subscriber the store
 * refuses (a value it cannot hold) is listed under failed; the others are still written.
 */
@Injectable()
export class BulkCreateSubscribers {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, subscribers }: BulkCreateSubscribersCommand): Promise<BulkCreateSubscribersResult> {
    const merged = [...mergeBySubscriberId(subscribers)];
    const now = this.clock.now();
    const outcome = new Map<string, { created: boolean } | { error: string }>();
    for (let start = 0; start < merged.length; start += CONCURRENCY) {
      await Promise.all(
        merged.slice(start, start + CONCURRENCY).map(async ([subscriberId, changes]) => {
          try {
            const { created } = await this.subscribers.upsert(scope, { id: newId(now.getTime()), subscriberId, changes, now });
            outcome.set(subscriberId, { created });
          } catch (error) {
            if (!(error instanceof StoreRejectedError)) throw error;
            outcome.set(subscriberId, { error: error.message });
          }
        }),
      );
    }
    const result: BulkCreateSubscribersResult = { created: [], updated: [], failed: [] };
    const counted = new Set<string>();
    for (const { subscriberId } of subscribers) {
      const done = outcome.get(subscriberId)!;
      if ('error' in done) result.failed.push({ subscriberId, message: done.error });
      else if (done.created && !counted.has(subscriberId)) result.created.push(subscriberId);
      else result.updated.push(subscriberId);
      counted.add(subscriberId);
    }
    return result;
  }
}
