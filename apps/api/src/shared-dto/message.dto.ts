import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsDefined, IsIn } from 'class-validator';
import { CHANNELS } from '@app/kernel';
import { DELIVERY_EVENT_TYPES, MESSAGE_STATUSES } from '@app/delivery';
import { SubscriberResponseDto } from './subscriber.dto';

export class MessageCtaDataResponseDto {
  @ApiPropertyOptional({ description: 'Where a click leads', example: '/orders/A-1001' })
  url?: string;
  @ApiPropertyOptional({ description: 'How the link opens (a v2 workflow’s step)', enum: ['_self', '_blank', '_parent', '_top', '_unfencedTop'] })
  target?: string;
}

export class MessageButtonResponseDto {
  @ApiProperty({ description: 'Button style', enum: ['primary', 'secondary'] })
  type: string;
  @ApiProperty({ description: 'Button label' })
  content: string;
  @ApiPropertyOptional({ description: 'Label shown once the button was clicked' })
  resultContent?: string;
  @ApiPropertyOptional({ description: 'Where the button leads (a v2 workflow’s step)', example: 'https://example.com/orders/A-1001' })
  url?: string;
  @ApiPropertyOptional({ description: 'How the button’s link opens', enum: ['_self', '_blank', '_parent', '_top', '_unfencedTop'] })
  target?: string;
}

export class MessageActionResultResponseDto {
  @ApiPropertyOptional({ description: 'Payload sent with the click', type: 'object', additionalProperties: true })
  payload?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'Which button was clicked', enum: ['primary', 'secondary'] })
  type?: string;
}

export class MessageActionResponseDto {
  @ApiPropertyOptional({ description: 'Whether a button was clicked', enum: ['pending', 'done'] })
  status?: string;
  @ApiPropertyOptional({ description: 'Action buttons', type: [MessageButtonResponseDto] })
  buttons?: MessageButtonResponseDto[];
  @ApiPropertyOptional({ description: 'The click, once done', type: MessageActionResultResponseDto })
  result?: MessageActionResultResponseDto;
}

export class MessageCtaResponseDto {
  @ApiProperty({ description: 'Call-to-action kind', enum: ['redirect'] })
  type: string;
  @ApiProperty({ description: 'Redirect target ({} when none)', type: MessageCtaDataResponseDto })
  data: MessageCtaDataResponseDto;
  @ApiPropertyOptional({ description: 'Buttons and their result', type: MessageActionResponseDto })
  action?: MessageActionResponseDto;
}

export class EmailBlockResponseDto {
  @ApiProperty({ description: 'Block kind', enum: ['text', 'button'] })
  type: string;
  @ApiProperty({ description: 'Rendered text of the block' })
  content: string;
  @ApiPropertyOptional({ description: 'Link of a button block' })
  url?: string;
  @ApiPropertyOptional({ description: 'Block styles ({textAlign})', type: 'object', additionalProperties: true })
  styles?: Record<string, unknown>;
}

@ApiExtraModels(EmailBlockResponseDto)
export class MessageActorDto {
  @ApiProperty({ description: 'user, system_icon or system_custom', enum: ['user', 'system_icon', 'system_custom'] })
  type: string;
  @ApiProperty({ description: "The actor's avatar (user), the icon name or the URL", type: String, nullable: true })
  data: string | null;
}

export class MessageResponseDto {
  @ApiProperty({ description: 'Message id' })
  _id: string;
  @ApiProperty({ description: 'Id of the workflow that sent it' })
  _templateId: string;
  @ApiProperty({ description: 'Environment id' })
  _environmentId: string;
  @ApiPropertyOptional({ description: 'Id of the workflow step that sent it' })
  _messageTemplateId?: string;
  @ApiProperty({ description: 'Organization id' })
  _organizationId: string;
  @ApiProperty({ description: 'Id of the notification (one per trigger and subscriber)' })
  _notificationId: string;
  @ApiProperty({ description: 'Internal id of the subscriber' })
  _subscriberId: string;
  @ApiProperty({ description: 'Id of the job (the step run) that sent the message' })
  _jobId: string;
  @ApiPropertyOptional({ description: 'The subscriber, when it still exists', type: SubscriberResponseDto })
  subscriber?: SubscriberResponseDto;
  @ApiProperty({ description: 'Trigger identifier of the workflow' })
  templateIdentifier: string;
  @ApiProperty({ description: 'Creation time (ISO-8601)' })
  createdAt: string;
  @ApiProperty({ description: 'Delivery times (ISO-8601); several after a snooze', type: [String] })
  deliveredAt: string[];
  @ApiPropertyOptional({
    description:
      'Beyond Novu: the latest state the provider reported through its event webhook (POST /v2/inbound-webhooks/delivery-providers/...); absent until one arrives. ' +
      'The latest by the time the provider gives (an earlier event arriving late does not replace it); every event is also an execution detail of the job.',
    enum: DELIVERY_EVENT_TYPES,
  })
  deliveryState?: string;
  @ApiPropertyOptional({ description: 'Beyond Novu: when the provider says deliveryState happened (ISO-8601)' })
  deliveryStateChangedAt?: string;
  @ApiPropertyOptional({ description: 'When the subscriber last saw it (ISO-8601)' })
  lastSeenDate?: string;
  @ApiPropertyOptional({ description: 'When the subscriber last read it (ISO-8601)' })
  lastReadDate?: string;
  @ApiProperty({
    description: 'Rendered content: text/HTML, or email editor blocks',
    oneOf: [{ type: 'string' }, { type: 'array', items: { $ref: getSchemaPath(EmailBlockResponseDto) } }],
  })
  content: string | Record<string, unknown>[];
  @ApiProperty({ description: 'Transaction of the trigger that sent it' })
  transactionId: string;
  @ApiPropertyOptional({ description: 'Email subject' })
  subject?: string;
  @ApiProperty({ description: 'Channel', enum: CHANNELS })
  channel: string;
  @ApiProperty({ description: 'Read by the subscriber' })
  read: boolean;
  @ApiProperty({ description: 'Seen by the subscriber' })
  seen: boolean;
  @ApiProperty({ description: 'Archived by the subscriber (Inbox)' })
  archived: boolean;
  @ApiPropertyOptional({ description: 'When it was archived (ISO-8601)' })
  archivedAt?: string;
  @ApiPropertyOptional({ description: 'Snoozed until (ISO-8601)' })
  snoozedUntil?: string;
  @ApiPropertyOptional({ description: 'Email address it was sent to' })
  email?: string;
  @ApiPropertyOptional({ description: 'Phone number it was sent to' })
  phone?: string;
  @ApiPropertyOptional({ description: 'Webhook URL a chat message was posted to' })
  directWebhookUrl?: string;
  @ApiPropertyOptional({ description: 'Provider that sent it', example: 'novu' })
  providerId?: string;
  @ApiPropertyOptional({ description: 'Device tokens a push message was sent to', type: [String] })
  deviceTokens?: string[];
  @ApiPropertyOptional({ description: 'Push title' })
  title?: string;
  @ApiProperty({ description: 'Call to action (`{type: "redirect", data: {}}` when none)', type: MessageCtaResponseDto })
  cta: MessageCtaResponseDto;
  @ApiProperty({ description: 'Delivery outcome', enum: MESSAGE_STATUSES })
  status: string;
  @ApiPropertyOptional({ description: 'Error id when status is error', example: 'unexpected_provider_error' })
  errorId?: string;
  @ApiPropertyOptional({ description: 'Error text when status is error' })
  errorText?: string;
  @ApiProperty({ description: 'Payload of the trigger', type: 'object', additionalProperties: true })
  payload: Record<string, unknown>;
  @ApiPropertyOptional({
    description: 'A v2 in-app step’s data, its string values rendered (what the Inbox shows as data)',
    type: 'object',
    additionalProperties: true,
  })
  data?: Record<string, unknown>;
  @ApiProperty({ description: 'Overrides of the trigger', type: 'object', additionalProperties: true })
  overrides: Record<string, unknown>;
  @ApiPropertyOptional({ description: "Internal id of the trigger's actor (a subscriber)" })
  _actorId?: string;
  @ApiPropertyOptional({ description: 'In-app avatar: `user` (the actor, its avatar as data), `system_icon` or `system_custom`', type: MessageActorDto })
  actor?: MessageActorDto;
}

export class MessagesResponseDto {
  @ApiProperty({ description: 'One page of messages, newest first', type: [MessageResponseDto] })
  data: MessageResponseDto[];
  @ApiProperty({ description: 'Messages matching the query' })
  totalCount: number;
  @ApiProperty({ description: 'Whether later pages hold more messages' })
  hasMore: boolean;
  @ApiProperty({ description: 'Page size asked for' })
  pageSize: number;
  @ApiProperty({ description: 'This page (from 0)' })
  page: number;
}

export class MarkMessagesAsRequestDto {
  @ApiProperty({
    description: 'One message id or several',
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    example: '6650f0c2a1b2c3d4e5f60718',
  })
  @IsDefined()
  messageId: string | string[];

  @ApiProperty({ description: 'What to mark them', enum: ['read', 'unread', 'seen', 'unseen'] })
  @IsIn(['read', 'unread', 'seen', 'unseen'])
  markAs: 'read' | 'unread' | 'seen' | 'unseen';
}
