import { Inject, Injectable, Logger } from '@nestjs/common';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository, TOPIC_REPOSITORY, TopicRepository, subscriptionAllows } from '@app/subscribers';
import { payloadWithDefaults } from '@app/workflows';
import { TopicRecipient } from '../../domain/recipients';
import { NotificationBatches } from './notification-batches';
import { FanOutRun, RecipientSource } from './recipient-source';

/**
 * The members of the topics in `to`, a page at a time: explicit recipients, each topic's `exclude`
 * and the actor are left out; a subscriber in several topics gets one notification. A member whose
 * subscription turns this workflow off (or whose condition the payload fails) is skipped for this
 * topic, and reached through another of its topics whose subscription lets it through, as Novu.
 */
@Injectable()
export class TopicRecipients implements RecipientSource {
  private readonly logger = new Logger(TopicRecipients.name);

  constructor(
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    private readonly batches: NotificationBatches,
  ) {}

  async deliver(run: FanOutRun): Promise<boolean> {
    for (const topic of run.recipients.to.topics) if (!(await this.deliverTopic(run, topic))) return false;
    return true;
  }

  private async deliverTopic({ scope, context, batchSize, seen }: FanOutRun, recipient: TopicRecipient): Promise<boolean> {
    const { trigger, workflow } = context;
    const topic = await this.topics.findByKey(scope, recipient.topicKey);
    if (!topic) {
      this.logger.warn(`Trigger ${trigger.transactionId}: topic ${recipient.topicKey} does not exist`);
      return true;
    }
    const excluded = new Set(recipient.exclude);
    const payload = payloadWithDefaults(trigger.payload, workflow);
    const topicContext = { ...context, topic: { topicId: topic.id, topicKey: topic.key } };
    return this.batches.deliverPaged(scope, topicContext, async (cursor) => {
      const batch = await this.topics.listMembersFor(scope, topic.key, workflow.id, cursor, batchSize);
      const members = batch.members.filter((m) => !seen.has(m.subscriberId) && !excluded.has(m.subscriberId));
      const ids = members.filter((m) => subscriptionAllows(m.preference, payload)).map((m) => m.subscriberId);
      if (ids.length < members.length) {
        this.logger.log(
          `Trigger ${trigger.transactionId}: ${members.length - ids.length} member(s) of topic ${topic.key} skipped, their subscription preferences turn workflow ${workflow.trigger.identifier} off for this payload`,
        );
      }
      ids.forEach((id) => seen.add(id));
      return { subscribers: ids.length ? await this.subscribers.findManyBySubscriberIds(scope, ids) : [], next: batch.next };
    });
  }
}
