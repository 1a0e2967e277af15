import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { SUBSCRIBER_REPOSITORY, Subscriber, SubscriberRepository } from '@app/subscribers';
import { WORKFLOW_REPOSITORY, WorkflowRepository } from '@app/workflows';
import { InboxItem, InboxNotificationView, InboxSubscriberInfo, InboxWorkflowInfo, toInboxNotification, toSocketMessage } from '../domain/inbox-notification';

export function toSubscriberInfo(subscriber: Subscriber): InboxSubscriberInfo {
  const info: InboxSubscriberInfo = { id: subscriber.id, subscriberId: subscriber.subscriberId };
  for (const field of ['firstName', 'lastName', 'avatar', 'locale', 'timezone', 'email', 'phone'] as const) {
    if (subscriber[field]) info[field] = subscriber[field];
  }
  if (subscriber.data) info.data = subscriber.data;
  return info;
}

/** Builds Inbox notifications from feed items: their workflows (cached lookups) and the subscriber. */
@Injectable()
export class InboxViews {
  constructor(
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
  ) {}

  async notifications(scope: EnvironmentScope, subscriberInternalId: string, items: InboxItem[]): Promise<InboxNotificationView[]> {
    const { workflowOf, subscriber } = await this.context(scope, subscriberInternalId, items);
    return items.map((item) => toInboxNotification(item, workflowOf(item), subscriber));
  }

  /** The socket payloads of items of any subscribers of one environment. */
  async socketMessagesOf(scope: EnvironmentScope, items: InboxItem[]): Promise<Record<string, unknown>[]> {
    const { workflowOf, subscriberOf } = await this.lookups(scope, [...new Set(items.map((item) => item.message.subscriberId))], items);
    return items.map((item) => toSocketMessage(item, workflowOf(item), subscriberOf(item.message.subscriberId)));
  }

  private async context(scope: EnvironmentScope, subscriberInternalId: string, items: InboxItem[]) {
    const { workflowOf, subscriberOf } = await this.lookups(scope, [subscriberInternalId], items);
    return { workflowOf, subscriber: subscriberOf(subscriberInternalId) };
  }

  private async lookups(scope: EnvironmentScope, subscriberIds: string[], items: InboxItem[]) {
    const ids = [...new Set(items.map((item) => item.message.workflowId))];
    const [workflows, subscribers] = await Promise.all([
      Promise.all(ids.map((id) => this.workflows.findById(scope, id))),
      this.subscribers.findManyByIds(scope, subscriberIds),
    ]);
    const byId = new Map(workflows.filter((w) => w !== null).map((w) => [w.id, w]));
    const workflowOf = (item: InboxItem): InboxWorkflowInfo => {
      const workflow = byId.get(item.message.workflowId);
      return {
        id: item.message.workflowId,
        identifier: workflow?.trigger.identifier ?? item.message.templateIdentifier,
        name: workflow?.name ?? item.message.templateIdentifier,
        critical: workflow?.critical ?? false,
        tags: workflow?.tags ?? item.message.tags ?? [],
        severity: item.severity,
      };
    };
    const byInternalId = new Map(subscribers.map((subscriber) => [subscriber.id, toSubscriberInfo(subscriber)]));
    const subscriberOf = (id: string): InboxSubscriberInfo => byInternalId.get(id) ?? { id, subscriberId: '' };
    return { workflowOf, subscriberOf };
  }
}
