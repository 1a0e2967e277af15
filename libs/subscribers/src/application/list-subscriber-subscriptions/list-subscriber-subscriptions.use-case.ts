import { Inject, Injectable } from '@nestjs/common';
import { CursorPage, EnvironmentScope } from '@app/kernel';
import { BothCursorsGivenError, SubscriberNotFoundError } from '../../domain/errors';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';
import { SubscriberSubscriptionSearch, TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';
import { TopicSubscriptionDetails } from '../topic-subscription-details';

export interface ListSubscriberSubscriptionsCommand extends SubscriberSubscriptionSearch {
  scope: EnvironmentScope;
  subscriberId: string;
}

/** The topics one subscriber is in, as subscriptions, cursor-paginated (Novu's `GET /v2/subscribers/{id}/subscriptions`). */
@Injectable()
export class ListSubscriberSubscriptions {
  constructor(
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
  ) {}

  async execute({ scope, subscriberId, ...search }: ListSubscriberSubscriptionsCommand): Promise<CursorPage<TopicSubscriptionDetails>> {
    const subscriber = await this.subscribers.findBySubscriberId(scope, subscriberId);
    if (!subscriber) throw new SubscriberNotFoundError(subscriberId, 'Subscriber not found');
    if (search.after !== undefined && search.before !== undefined) throw new BothCursorsGivenError();
    const page = await this.topics.listSubscriptionsOfSubscriber(scope, subscriberId, search);
    const topics = new Map(
      (
        await this.topics.findByKeys(
          scope,
          page.items.map((s) => s.topicKey),
        )
      ).map((t) => [t.key, t]),
    );
    // A topic deleted between the two reads takes its subscription with it.
    const items = page.items.flatMap((subscription) => {
      const topic = topics.get(subscription.topicKey);
      return topic ? [{ subscription, topic, subscriber }] : [];
    });
    return { ...page, items };
  }
}
