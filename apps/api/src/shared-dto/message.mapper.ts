import { Message, MessageCta } from '@app/delivery';
import { InvalidRequestError } from '@app/kernel';
import { Subscriber } from '@app/subscribers';
import { MessageCtaResponseDto, MessageResponseDto } from './message.dto';
import { toSubscriberResponse } from './subscriber.mapper';
import { definedOnly } from './defined-only';

// Novu's schema requires `cta`; a message without one shows an empty redirect.
function toCtaResponse(cta: MessageCta | undefined): MessageCtaResponseDto {
  if (!cta) return { type: 'redirect', data: {} };
  const action = cta.action;
  return {
    type: cta.type ?? 'redirect',
    data: definedOnly({ url: cta.data?.url, target: cta.data?.target }),
    ...(action
      ? {
          action: definedOnly({
            status: action.status,
            buttons: action.buttons?.map((button) =>
              definedOnly({ type: button.type, content: button.content, resultContent: button.resultContent, url: button.url, target: button.target }),
            ),
            result: action.result ? definedOnly({ payload: action.result.payload, type: action.result.type }) : undefined,
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
    ...definedOnly({ deliveryState: message.deliveryState, deliveryStateChangedAt: message.deliveryStateAt?.toISOString() }),
    ...definedOnly({
      lastSeenDate: message.lastSeenDate?.toISOString(),
      lastReadDate: message.lastReadDate?.toISOString(),
    }),
    content: message.content,
    transactionId: message.transactionId,
    ...definedOnly({ subject: message.subject }),
    channel: message.channel,
    read: message.read,
    seen: message.seen,
    archived: message.archived,
    ...definedOnly({
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
    ...definedOnly({ errorId: message.errorId, errorText: message.errorText }),
    payload: message.payload,
    ...definedOnly({ data: message.data }),
    overrides: message.overrides,
    ...(message.actorSubscriberId !== undefined ? { _actorId: message.actorSubscriberId } : {}),
    // Novu shows a user actor's avatar as its data.
    ...(message.actor ? { actor: { type: message.actor.type, data: message.actor.type === 'user' ? (message.avatar ?? null) : message.actor.data } } : {}),
  };
}

/** `messageId`: one id or a list (at most 100). */
export function idsOf(messageId: unknown): string[] {
  const ids = Array.isArray(messageId) ? messageId : [messageId];
  if (!ids.length || ids.length > 100 || !ids.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 64)) {
    throw new InvalidRequestError('invalid_message_id', 'messageId must be a message id or a list of 1 to 100 of them');
  }
  return ids as string[];
}
