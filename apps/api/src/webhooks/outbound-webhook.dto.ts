import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { OUTBOUND_EVENT_TYPES, OutboundEventType } from '@app/kernel';
import { PageQueryDto } from '../http/page-query.dto';

const DESCRIPTION_MAX = 1024;
const URL_MAX = 2048;
const EVENT_TYPES_DESCRIPTION =
  'The event types sent to this endpoint; absent or null: every type. message.sent and message.failed come from the delivery of each channel step ' +
  '(message.failed also from a vendor reporting a bounce, drop or failure), message.delivered from vendor delivery events, message.seen also from vendor opens, ' +
  'message.read/unread/seen/archived/unarchived/snoozed/unsnoozed/deleted from the Inbox and the v1 message routes (one event per ' +
  'message whose state changed), workflow.created/updated/deleted from the workflow routes, preference.updated from the subscriber preference routes.';

export class CreateWebhookEndpointRequestDto {
  @ApiProperty({
    description: 'Where events are POSTed (http or https; private and loopback addresses only with ALLOW_PRIVATE_NETWORK_TARGETS=true)',
    example: 'https://example.com/hooks/notify',
    maxLength: URL_MAX,
  })
  @IsString()
  @MaxLength(URL_MAX)
  url: string;

  @ApiPropertyOptional({ description: 'Free text for you', example: 'Order service', maxLength: DESCRIPTION_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string;

  @ApiPropertyOptional({ description: EVENT_TYPES_DESCRIPTION, enum: OUTBOUND_EVENT_TYPES, isArray: true, example: ['message.sent', 'message.failed'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(OUTBOUND_EVENT_TYPES.length)
  @IsIn(OUTBOUND_EVENT_TYPES, { each: true })
  eventTypes?: OutboundEventType[];

  @ApiPropertyOptional({ description: 'A disabled endpoint is sent nothing (default false)', example: false })
  @IsOptional()
  @IsBoolean()
  disabled?: boolean;
}

export class UpdateWebhookEndpointRequestDto {
  @ApiPropertyOptional({ description: 'A new URL (same rules as at creation)', maxLength: URL_MAX, example: 'https://example.com/hooks/orders' })
  @IsOptional()
  @IsString()
  @MaxLength(URL_MAX)
  url?: string;

  @ApiPropertyOptional({
    description: 'New description; null removes it',
    nullable: true,
    type: String,
    maxLength: DESCRIPTION_MAX,
    example: 'Order service (v2)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;

  @ApiPropertyOptional({ description: `${EVENT_TYPES_DESCRIPTION} Replaces the stored list.`, enum: OUTBOUND_EVENT_TYPES, isArray: true, nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(OUTBOUND_EVENT_TYPES.length)
  @IsIn(OUTBOUND_EVENT_TYPES, { each: true })
  eventTypes?: OutboundEventType[] | null;

  @ApiPropertyOptional({ description: 'true stops sending to the endpoint; false sends again (and clears disabledReason)', example: false })
  @IsOptional()
  @IsBoolean()
  disabled?: boolean;
}

export class SendTestWebhookRequestDto {
  @ApiPropertyOptional({
    description: 'The type of the example event (default message.sent); its data.object is `{ test: true, _id, _environmentId }`',
    enum: OUTBOUND_EVENT_TYPES,
  })
  @IsOptional()
  @IsIn(OUTBOUND_EVENT_TYPES)
  eventType?: OutboundEventType;
}

export class ListWebhookEndpointsQueryDto extends PageQueryDto {}
export class ListWebhookAttemptsQueryDto extends PageQueryDto {}

export class WebhookEndpointResponseDto {
  @ApiProperty({ description: 'Id of the endpoint', example: '6650f0a1c2b3d4e5f6a7b8c9' })
  _id: string;

  @ApiProperty({ description: 'Environment the endpoint belongs to' })
  _environmentId: string;

  @ApiProperty({ description: 'Where events are POSTed' })
  url: string;

  @ApiPropertyOptional({ description: 'Free text; absent when never set' })
  description?: string;

  @ApiPropertyOptional({ description: 'The event types sent; absent: every type', enum: OUTBOUND_EVENT_TYPES, isArray: true })
  eventTypes?: OutboundEventType[];

  @ApiProperty({ description: 'Whether sending is stopped' })
  disabled: boolean;

  @ApiPropertyOptional({
    description: 'Why the service disabled it (sustained failure: every attempt of an event failed and nothing succeeded since); absent otherwise',
  })
  disabledReason?: string;

  @ApiPropertyOptional({
    description:
      'The signing secret (`whsec_` + base64 key), shown only in the answers of creation and rotate-secret. Verify with the `standardwebhooks` or `svix` libraries.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret?: string;

  @ApiProperty({ description: 'Creation time (ISO-8601)' })
  createdAt: string;

  @ApiProperty({ description: 'Last change (ISO-8601)' })
  updatedAt: string;
}

export class WebhookEndpointListResponseDto {
  @ApiProperty({ description: 'Endpoints of this page, oldest first (secrets never shown)', type: [WebhookEndpointResponseDto] })
  data: WebhookEndpointResponseDto[];

  @ApiProperty({ description: 'The page returned (0-based)', example: 0 })
  page: number;

  @ApiProperty({ description: 'The page size asked for', example: 10 })
  pageSize: number;

  @ApiProperty({ description: 'Whether another page follows' })
  hasMore: boolean;
}

export class WebhookAttemptResponseDto {
  @ApiProperty({ description: 'Id of the attempt' })
  _id: string;

  @ApiProperty({ description: 'The webhook-id (and svix-id) header of the delivery: the same on every attempt of one event to one endpoint' })
  webhookId: string;

  @ApiProperty({ description: 'The event type, or `endpoint.disabled` for the entry saying the service disabled the endpoint', example: 'message.sent' })
  event: string;

  @ApiProperty({ description: 'Which attempt of the delivery (1-based)', example: 1 })
  attempt: number;

  @ApiPropertyOptional({ description: 'The HTTP status the endpoint answered; absent when no answer came', example: 200 })
  statusCode?: number;

  @ApiPropertyOptional({ description: 'How long the attempt took, in milliseconds', example: 42 })
  latencyMs?: number;

  @ApiProperty({ description: 'Whether the endpoint answered 2xx' })
  success: boolean;

  @ApiPropertyOptional({ description: 'Why it failed (the status, a network error, the target refused by the network rules)' })
  error?: string;

  @ApiPropertyOptional({ description: 'The start of the answer body' })
  response?: string;

  @ApiProperty({ description: 'When the attempt was made (ISO-8601)' })
  createdAt: string;
}

export class WebhookAttemptListResponseDto {
  @ApiProperty({ description: 'Attempts of this page, newest first', type: [WebhookAttemptResponseDto] })
  data: WebhookAttemptResponseDto[];

  @ApiProperty({ description: 'The page returned (0-based)', example: 0 })
  page: number;

  @ApiProperty({ description: 'The page size asked for', example: 10 })
  pageSize: number;

  @ApiProperty({ description: 'Whether another page follows' })
  hasMore: boolean;
}

export class TestWebhookResponseDto {
  @ApiProperty({ description: 'The webhook-id the example event is sent under (see the attempts log)' })
  webhookId: string;
}

export class ReplyCallbackSecretResponseDto {
  @ApiProperty({ description: "The environment's secret that signs every reply-callback POST (Standard Webhooks headers), `whsec_` + base64 key" })
  secret: string;
}
