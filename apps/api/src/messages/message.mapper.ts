import { Message, MessageCta, MessagesPage } from '@app/delivery';
import { Subscriber } from '@app/subscribers';
import { toSubscriberResponse } from '../subscribers/subscriber.mapper';
import { MessageCtaResponseDto, MessageResponseDto, MessagesResponseDto } from './message.dto';

const defined = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

// Novu's schema requires `cta`; a message without one shows an empty redirect.
function toCtaResponse(cta: MessageCta | undefined): MessageCtaResponseDto {
  if (!cta) return { type: 'redirect', data: {} };
  const action = cta.action;
  return {
    type: cta.type ?? 'redirect',
    data: defined({ url: cta.data?.url, target: cta.data?.target }),
    ...(action
      ? {
          action: defined({
            status: action.status,
            buttons: action.buttons?.map((button) =>
              defined({ type: button.type, content: button.content, resultContent: button.resultContent, url: button.url, target: button.target }),
            ),
            result: action.result ? defined({ payload: action.result.payload, type: action.result.type }) : undefined,
          }),
        }
      : {}),
  };
}

/** Domain → Novu's MessageResponseDto; unset optional fields are left out, never null. */
export function toMessageResponse(message: Message, subscriber?: Subscriber): MessageResponseDto {
  return {
    _id: message.id,
    _templateId: message.workflowId,
    _environmentId: message.environmentId,
    ...(message.stepId !== undefined ? { _messageTemplateId: message.stepId } : {}),
    _organizationId: message.organizationId,
    _notificationId: message.notificationId,
    _subscriberId: message.subscriberId,
    _jobId: message.jobId,
    ...(subscriber ? { subscriber: toSubscriberResponse({ subscriber, topics: [] }) } : {}),
    templateIdentifier: message.templateIdentifier,
    createdAt: message.createdAt.toISOString(),
    deliveredAt: message.deliveredAt.map((date) => date.toISOString()),
    ...defined({ deliveryState: message.deliveryState, deliveryStateChangedAt: message.deliveryStateAt?.toISOString() }),
    ...defined({
      lastSeenDate: message.lastSeenDate?.toISOString(),
      lastReadDate: message.lastReadDate?.toISOString(),
    }),
    content: message.content,
    transactionId: message.transactionId,
    ...defined({ subject: message.subject }),
    channel: message.channel,
    read: message.read,
    seen: message.seen,
    archived: message.archived,
    ...defined({
      archivedAt: message.archivedAt?.toISOString(),
      snoozedUntil: message.snoozedUntil?.toISOString(),
      email: message.email,
      phone: message.phone,
      directWebhookUrl: message.directWebhookUrl,
      providerId: message.providerId,
      deviceTokens: message.deviceTokens,
      title: message.title,
    }),
    cta: toCtaResponse(message.cta),
    status: message.status,
    ...defined({ errorId: message.errorId, errorText: message.errorText }),
    payload: message.payload,
    ...defined({ data: message.data }),
    overrides: message.overrides,
    ...(message.actorSubscriberId !== undefined ? { _actorId: message.actorSubscriberId } : {}),
    // Novu shows a user actor's avatar as its data.
    ...(message.actor ? { actor: { type: message.actor.type, data: message.actor.type === 'user' ? (message.avatar ?? null) : message.actor.data } } : {}),
  };
}

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
