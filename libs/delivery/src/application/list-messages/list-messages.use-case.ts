import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, InvalidRequestError, NotFoundError, Page } from '@app/kernel';
import { SUBSCRIBER_REPOSITORY, Subscriber, SubscriberRepository } from '@app/subscribers';
import { Message } from '../../domain/message';
import { MESSAGE_REPOSITORY, MessageRepository } from '../../ports/message.repository.port';

export interface ListMessagesQuery {
  channel?: string;
  /** The caller's subscriberId. */
  subscriberId?: string;
  transactionIds?: string[];
  page: number;
  limit: number;
}

export const MAX_MESSAGES_PAGE_SIZE = 1000;

export interface MessagesPage extends Page<Message> {
  subscribers: Map<string, Subscriber>;
}

/** GET /v1/messages: newest first, filtered by channel, subscriber and transaction ids. */
@Injectable()
export class ListMessages {
  constructor(
    @Inject(MESSAGE_REPOSITORY) private readonly messages: MessageRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
  ) {}

  async execute(scope: EnvironmentScope, query: ListMessagesQuery): Promise<MessagesPage> {
    if (query.limit > MAX_MESSAGES_PAGE_SIZE) throw new InvalidRequestError('limit_too_large', `Limit can not be larger then ${MAX_MESSAGES_PAGE_SIZE}`);
    let subscriberId: string | undefined;
    if (query.subscriberId !== undefined) {
      const subscriber = await this.subscribers.findBySubscriberId(scope, query.subscriberId);
      if (!subscriber) throw new NotFoundError('subscriber_not_found', `Subscriber '${query.subscriberId}' was not found`);
      subscriberId = subscriber.id;
    }
    const page = await this.messages.list(scope, {
      channel: query.channel,
      subscriberId,
      transactionIds: query.transactionIds,
      page: query.page,
      limit: query.limit,
    });
    return { ...page, subscribers: await this.subscribersOf(scope, page.items) };
  }

  private async subscribersOf(scope: EnvironmentScope, messages: Message[]): Promise<Map<string, Subscriber>> {
    const found = await this.subscribers.findManyByIds(scope, [...new Set(messages.map((m) => m.subscriberId))]);
    return new Map(found.map((s) => [s.id, s]));
  }
}
