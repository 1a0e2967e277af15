import { ApiExtraModels, ApiProperty, ApiPropertyOptional, OmitType, getSchemaPath } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsDefined,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  isDefined,
  isNotEmpty,
  isObject,
  isString,
  maxLength,
} from 'class-validator';
import { acceptPlainBody } from '../http/validation';

// ---- documentation-only shapes of the `to`, `actor` and `tenant` unions (the use case validates them) ----

export class SubscriberChannelPayloadDto {
  @ApiProperty({ description: 'Provider of the channel, e.g. `slack` or `fcm`', example: 'chat-webhook' })
  providerId: string;
  @ApiPropertyOptional({ description: 'Integration to store the credentials on, when the provider has several' })
  integrationIdentifier?: string;
  @ApiProperty({
    description: 'Channel credentials: `webhookUrl` (chat) or `deviceTokens` (push); device tokens are appended',
    type: 'object',
    additionalProperties: true,
    example: { webhookUrl: 'https://hooks.example.com/T000' },
  })
  credentials: Record<string, unknown>;
}

export class SubscriberPayloadDto {
  @ApiProperty({ description: "The caller's own identifier of the subscriber; created when unknown", example: 'user-123', minLength: 1 })
  subscriberId: string;
  @ApiPropertyOptional({ description: 'First name (null clears it)', nullable: true, example: 'John' })
  firstName?: string | null;
  @ApiPropertyOptional({ description: 'Last name (null clears it)', nullable: true, example: 'Doe' })
  lastName?: string | null;
  @ApiPropertyOptional({ description: 'Email address (null clears it)', nullable: true, example: 'john.doe@example.com' })
  email?: string | null;
  @ApiPropertyOptional({ description: 'Phone number (null clears it)', nullable: true, example: '+1234567890' })
  phone?: string | null;
  @ApiPropertyOptional({ description: 'Avatar URL (null clears it)', nullable: true })
  avatar?: string | null;
  @ApiPropertyOptional({ description: 'Locale (null clears it)', nullable: true, example: 'en-US' })
  locale?: string | null;
  @ApiPropertyOptional({ description: 'IANA timezone (null clears it)', nullable: true, example: 'America/New_York' })
  timezone?: string | null;
  @ApiPropertyOptional({ description: 'Custom data; replaces the stored data whole', nullable: true, type: 'object', additionalProperties: true })
  data?: Record<string, unknown> | null;
  @ApiPropertyOptional({ description: 'Channel credentials to store for the subscriber', type: [SubscriberChannelPayloadDto] })
  channels?: SubscriberChannelPayloadDto[];
}

export class TopicPayloadDto {
  @ApiProperty({ description: 'Marks the recipient as a topic', enum: ['Topic'], example: 'Topic' })
  type: 'Topic';
  @ApiProperty({ description: 'Key of the topic whose subscribers receive the notification', example: 'project-42', minLength: 1 })
  topicKey: string;
  @ApiPropertyOptional({ description: 'subscriberIds of topic members to leave out (at most 100)', type: [String] })
  exclude?: string[];
}

export class ContextPayloadDto {
  @ApiProperty({ description: 'Id of the context (1 to 100 letters, digits, `-` or `_`)', example: 'acme' })
  id: string;
  @ApiPropertyOptional({ description: "The context's data (replaces the stored data); at most 64 KB as JSON", type: 'object', additionalProperties: true })
  data?: Record<string, unknown>;
}

export class TenantPayloadDto {
  @ApiProperty({ description: 'Identifier of an existing tenant', example: 'acme' })
  identifier: string;
  @ApiPropertyOptional({ description: 'New name for the tenant' })
  name?: string;
  @ApiPropertyOptional({ description: 'New custom data for the tenant', type: 'object', additionalProperties: true })
  data?: Record<string, unknown>;
}

const subscriberIdString = { type: 'string', minLength: 1, description: "A subscriberId of the caller's own", example: 'user-123' };
const recipient = { oneOf: [subscriberIdString, { $ref: getSchemaPath(SubscriberPayloadDto) }, { $ref: getSchemaPath(TopicPayloadDto) }] };

@ApiExtraModels(SubscriberPayloadDto, TopicPayloadDto, TenantPayloadDto, ContextPayloadDto)
export class TriggerEventRequestDto {
  @ApiProperty({ description: 'Trigger identifier of the workflow to run', example: 'order-shipped' })
  @IsString()
  @IsNotEmpty()
  name: string;

  @ApiProperty({
    description:
      'Recipients: a subscriberId, a subscriber object (upserted: fields present are changed, null clears), a topic ' +
      '`{type: "Topic", topicKey, exclude?}`, or an array mixing them (at most 100 entries, de-duplicated by subscriberId)',
    oneOf: [{ type: 'array', items: recipient }, ...recipient.oneOf],
    example: ['user-123', { subscriberId: 'user-456', email: 'jane@example.com' }, { type: 'Topic', topicKey: 'project-42' }],
  })
  @IsDefined()
  to: unknown;

  @ApiPropertyOptional({
    description: 'Custom data for rendering templates and for step filters; at most 512 KB as JSON',
    type: 'object',
    additionalProperties: true,
    example: { orderId: 'A-1001' },
  })
  @IsOptional()
  @IsObject()
  payload?: Record<string, unknown>;

  @ApiPropertyOptional({
    description:
      'Provider and step overrides: `<channel>`, `<providerId>`, `providers.<providerId>`, `steps.<stepId>.providers.<providerId>`, ' +
      '`delay: {amount, unit}`, `<channel>.integrationIdentifier`',
    type: 'object',
    additionalProperties: true,
    example: { email: { subject: 'Hello' } },
  })
  @IsOptional()
  @IsObject()
  overrides?: Record<string, unknown>;

  @ApiPropertyOptional({
    description: 'Deduplication key, generated when absent: a repeat is acknowledged the same way and delivers nothing',
    maxLength: 255,
    example: 'order-A-1001',
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  transactionId?: string;

  @ApiPropertyOptional({
    description: 'Who caused the notification (a subscriberId or a subscriber object, upserted); shown as the in-app avatar',
    oneOf: [subscriberIdString, { $ref: getSchemaPath(SubscriberPayloadDto) }],
  })
  @IsOptional()
  actor?: unknown;

  @ApiPropertyOptional({
    description: 'Tenant context (an identifier or an object, which updates the existing tenant); unknown → status no_tenant_found',
    oneOf: [{ type: 'string', description: 'Identifier of an existing tenant', example: 'acme' }, { $ref: getSchemaPath(TenantPayloadDto) }],
  })
  @IsOptional()
  tenant?: unknown;

  @ApiPropertyOptional({
    description:
      'Contexts the notification is sent within, by type (1 to 100 letters, digits, `-` or `_`): each an id, or `{id, data}`. A context ' +
      'missing in the environment is created (with the data given, else `{}`); given data replaces the stored data. Templates and ' +
      'conditions read `context.<type>.id` and `context.<type>.data`; the notification records the contexts as `type:id` keys',
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string', example: 'acme' }, { $ref: getSchemaPath(ContextPayloadDto) }] },
    example: { tenant: { id: 'acme', data: { name: 'Acme Corp', plan: 'pro' } }, app: 'jira' },
  })
  @IsOptional()
  context?: unknown;
}

const absent = (value: unknown) => value === undefined || value === null; // what @IsOptional skips

// The decorators above as one check, with class-validator's own functions (the spec holds the two
// lists together): the hot path of every trigger.
acceptPlainBody(
  TriggerEventRequestDto,
  ['name', 'to', 'payload', 'overrides', 'transactionId', 'actor', 'tenant', 'context'],
  ({ name, to, payload, overrides, transactionId }) =>
    isString(name) &&
    isNotEmpty(name) &&
    isDefined(to) &&
    (absent(payload) || isObject(payload)) &&
    (absent(overrides) || isObject(overrides)) &&
    (absent(transactionId) || (isString(transactionId) && maxLength(transactionId, 255))),
);

export const TRIGGER_STATUSES = [
  'error',
  'trigger_not_active',
  'no_workflow_active_steps_defined',
  'no_workflow_steps_defined',
  'processed',
  'no_tenant_found',
  'invalid_recipients',
] as const;

export class TriggerEventResponseDto {
  @ApiProperty({ description: 'Always true: the trigger was accepted (durably, when status is processed)' })
  acknowledged: boolean;
  @ApiProperty({ description: 'What happened to the trigger', enum: TRIGGER_STATUSES, example: 'processed' })
  status: string;
  @ApiPropertyOptional({ description: 'Error messages, for status `error`', type: [String] })
  error?: string[];
  @ApiProperty({ description: 'The transactionId of the trigger (given or generated); cancel or look it up with it', example: 'txn_6650a1b2c3d4e5f6a7b8c9d0' })
  transactionId: string;
  @ApiProperty({
    description: 'The activity feed of this transaction: a path of this API (GET, with the API key), where Novu links its dashboard',
    example: '/v1/notifications?transactionId=txn_6650a1b2c3d4e5f6a7b8c9d0',
  })
  activityFeedLink: string;
}

/** `POST /v1/events/trigger/broadcast`: a trigger without `to`, for every subscriber of the environment. */
export class BroadcastEventRequestDto extends OmitType(TriggerEventRequestDto, ['to'] as const) {}

export class BulkTriggerEventRequestDto {
  @ApiProperty({
    description:
      'The triggers, 1 to 100, each shaped as the body of POST /v1/events/trigger. Each is answered on its own: one that fails ' +
      '(validation, unknown workflow) answers status `error` in its place and the others still run.',
    type: [TriggerEventRequestDto],
    minItems: 1,
    maxItems: 100,
  })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(100)
  events: unknown[];
}

export class BulkTriggerEventResultDto {
  @ApiProperty({ description: 'Always true, also for an event that failed', example: true })
  acknowledged: boolean;
  @ApiProperty({ description: 'What happened to this event; `error` when it was refused (see error)', enum: TRIGGER_STATUSES, example: 'processed' })
  status: string;
  @ApiPropertyOptional({ description: 'Why the event was refused (status `error`), e.g. `workflow_not_found`', type: [String] })
  error?: string[];
  @ApiPropertyOptional({ description: 'The transactionId of the event (given or generated); absent when it was refused' })
  transactionId?: string;
  @ApiPropertyOptional({ description: 'The activity feed of this transaction (a path of this API); absent when the event was refused' })
  activityFeedLink?: string;
}
