import { MessagesPage } from '@app/delivery';
import { MessagesResponseDto } from '../shared-dto/message.dto';
import { toMessageResponse } from '../shared-dto/message.mapper';

/** Novu's `{data, totalCount, hasMore, pageSize, page}` page of messages. */
export function toMessagesResponse(page: MessagesPage, query: { page: number; limit: number }): MessagesResponseDto {
  return {
    data: page.items.map((message) => toMessageResponse(message, page.subscribers.get(message.subscriberId))),
    totalCount: page.totalCount,
    hasMore: query.page * query.limit + page.items.length < page.totalCount,
    pageSize: query.limit,
    page: query.page,
  };
}
