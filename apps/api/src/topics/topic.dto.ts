import { IDENTIFIER_MAX_LENGTH } from '@app/kernel';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import { TOPIC_KEY_PATTERN, TOPIC_ORDER_FIELDS } from '@app/subscribers';
import { CursorPageDto, CursorQueryDto, cursorQueryDto } from '../http/cursor-query.dto';
import { IsIdentifier } from '../http/identifier';
import { SubscriptionSubscriberDto } from '../shared-dto/subscriber.dto';
import { TopicResponseDto } from '../shared-dto/topic-subscription.dto';

export class TopicSummaryDto {
  @ApiProperty({ description: 'Internal id of the topic' })
  _id: string;
  @ApiProperty({ description: 'Key of the topic' })
  key: string;
  @ApiPropertyOptional({ description: 'Name of the topic' })
  name?: string;
}

export class SubscriptionWorkflowDto {
  @ApiProperty({ description: 'Internal id of the workflow' })
  id: string;
  @ApiProperty({ description: 'Trigger identifier' })
  identifier: string;
  @ApiProperty({ description: 'Workflow name' })
  name: string;
  @ApiProperty({ description: 'Whether the workflow is critical' })
  critical: boolean;
  @ApiProperty({ description: 'Workflow tags', type: [String] })
  tags: string[];
  @ApiPropertyOptional({ description: 'Custom data of the workflow', type: 'object', additionalProperties: true })
  data?: Record<string, unknown>;
  @ApiProperty({ description: 'Severity (this service has none: always "none")', example: 'none' })
  severity: string;
}

export class SubscriptionPreferenceDto {
  @ApiProperty({ description: 'Identifier of the subscription the preference belongs to' })
  subscriptionId: string;
  @ApiPropertyOptional({ description: 'The workflow the preference is for', type: SubscriptionWorkflowDto })
  workflow?: SubscriptionWorkflowDto;
  @ApiProperty({ description: 'Whether triggers of the workflow sent to the topic reach this subscriber (when no condition is given)' })
  enabled: boolean;
  @ApiPropertyOptional({
    description: 'JSON Logic condition on `{payload}`: a trigger of the workflow sent to the topic reaches this subscriber only when it gives exactly true',
    type: 'object',
    additionalProperties: true,
  })
  condition?: Record<string, unknown>;
}

export class SubscriptionResponseDto {
  @ApiProperty({ description: 'Internal id of the subscription' })
  _id: string;
  @ApiProperty({ description: 'Identifier of the subscription, derived from topic key and subscriberId', example: 'tk_news:si_user-1' })
  identifier: string;
  @ApiPropertyOptional({ description: 'Name of the subscription' })
  name?: string;
  @ApiPropertyOptional({ description: "The subscription's own per-workflow preferences, when it has any", type: [SubscriptionPreferenceDto] })
  preferences?: SubscriptionPreferenceDto[];
  @ApiProperty({ description: 'The topic', type: TopicSummaryDto })
  topic: TopicSummaryDto;
  @ApiProperty({ description: 'The subscriber (null if it vanished meanwhile)', type: SubscriptionSubscriberDto, nullable: true })
  subscriber: SubscriptionSubscriberDto | null;
  @ApiProperty({ description: 'Creation time (ISO-8601)' })
  createdAt: string;
  @ApiProperty({ description: 'Last change (ISO-8601)' })
  updatedAt: string;
}

/** One subscription as Novu's v2 read of it answers: its identifiers, name and own per-workflow preferences. */
export class SubscriptionDetailsResponseDto {
  @ApiProperty({ description: 'Internal id of the subscription' })
  id: string;
  @ApiProperty({ description: 'Identifier of the subscription, derived from topic key and subscriberId', example: 'tk_news:si_user-1' })
  identifier: string;
  @ApiPropertyOptional({ description: 'Name of the subscription' })
  name?: string;
  @ApiProperty({ description: "The subscription's own per-workflow preferences ([] when it has none)", type: [SubscriptionPreferenceDto] })
  preferences: SubscriptionPreferenceDto[];
}

export class SubscriptionsMetaDto {
  @ApiProperty({ description: 'How many distinct subscriberIds were given' })
  totalCount: number;
  @ApiProperty({ description: 'How many succeeded' })
  successful: number;
  @ApiProperty({ description: 'How many failed (see errors)' })
  failed: number;
}

export class SubscriptionErrorDto {
  @ApiProperty({ description: 'The subscriberId that failed' })
  subscriberId: string;
  @ApiProperty({ description: 'Error code', example: 'SUBSCRIBER_NOT_FOUND' })
  code: string;
  @ApiProperty({ description: 'What went wrong' })
  message: string;
}

export class SubscriptionsResultDto {
  @ApiProperty({ description: 'The subscriptions created (or already present) / removed', type: [SubscriptionResponseDto] })
  data: SubscriptionResponseDto[];
  @ApiProperty({ description: 'Counts', type: SubscriptionsMetaDto })
  meta: SubscriptionsMetaDto;
  @ApiPropertyOptional({ description: 'Per-subscriber failures; left out when there are none', type: [SubscriptionErrorDto] })
  errors?: SubscriptionErrorDto[];
}

export class ListTopicsResponseDto extends CursorPageDto {
  @ApiProperty({ description: 'One page of topics', type: [TopicResponseDto] })
  data: TopicResponseDto[];
}

export class ListTopicsQueryDto extends cursorQueryDto(TOPIC_ORDER_FIELDS) {
  @ApiPropertyOptional({ description: 'Case-insensitive substring of the key' })
  @IsOptional()
  @IsString()
  key?: string;

  @ApiPropertyOptional({ description: 'Case-insensitive substring of the name' })
  @IsOptional()
  @IsString()
  name?: string;
}

export class ListTopicSubscriptionsQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ description: 'Only the subscription of this subscriberId' })
  @IsOptional()
  @IsString()
  subscriberId?: string;
}

export class CreateUpdateTopicRequestDto {
  @ApiProperty({ description: 'Key of the topic: letters, digits, and _ : . -', example: 'product-updates', maxLength: IDENTIFIER_MAX_LENGTH })
  @IsIdentifier()
  @Matches(TOPIC_KEY_PATTERN, { message: 'key may only contain letters, digits, underscores, colons, periods and hyphens' })
  key: string;

  @ApiPropertyOptional({ description: 'Name of the topic', example: 'Product updates' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;
}

export class UpsertTopicQueryDto {
  @ApiPropertyOptional({ description: 'When "true", answer 409 if the topic exists instead of updating it', type: String, example: 'true' })
  @IsOptional()
  @IsString()
  failIfExists?: string;
}

export class UpdateTopicRequestDto {
  @ApiPropertyOptional({ description: 'New name of the topic', example: 'Product news' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;
}

export class TopicSubscriptionsRequestDto {
  @ApiProperty({
    description: 'subscriberIds to subscribe or unsubscribe, 1 to 100, each at most 256 characters',
    type: [String],
    example: ['user-1', 'user-2'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsIdentifier({ each: true })
  subscriberIds: string[];
}

/** An entry of Novu's subscription `preferences`: a workflow id, `{workflowId, …}` or `{filter: {workflowIds, tags}, …}`. */
function isSubscriptionPreference(value: unknown): boolean {
  const isId = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= IDENTIFIER_MAX_LENGTH;
  if (typeof value === 'string') return isId(value);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const entry = value as Record<string, unknown>;
  if (entry.enabled !== undefined && typeof entry.enabled !== 'boolean') return false;
  if (entry.condition !== undefined && (!entry.condition || typeof entry.condition !== 'object' || Array.isArray(entry.condition))) return false;
  if (entry.workflowId !== undefined) return isId(entry.workflowId);
  const filter = entry.filter as Record<string, unknown> | undefined;
  if (!filter || typeof filter !== 'object' || Array.isArray(filter)) return false;
  const ids = (list: unknown) => list === undefined || (Array.isArray(list) && list.length <= 100 && list.every(isId));
  return ids(filter.workflowIds) && ids(filter.tags);
}

export class UpdateTopicSubscriptionRequestDto {
  @ApiPropertyOptional({ description: 'Name of the subscription', example: 'My subscription' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({
    description:
      "The subscription's preferences, replacing the stored ones: each a workflow id or trigger identifier, `{workflowId, enabled?, condition?}` " +
      'or `{filter: {workflowIds?, tags?}, enabled?, condition?}` (tags name active workflows). `condition` is JSON Logic on `{payload}`; ' +
      'workflows that are not found are left out. Applied when a trigger of that workflow goes to the topic: with a condition, the subscriber ' +
      'is reached only when it gives exactly true for the payload (`enabled` is then not read); without one, only when `enabled` is not false. ' +
      'A subscriber skipped so is still reached through another topic of the trigger whose subscription lets it through, or when named as a recipient',
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }] },
    example: [{ filter: { workflowIds: ['welcome'], tags: ['billing'] }, enabled: false }],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateBy({
    name: 'isSubscriptionPreference',
    validator: {
      validate: (value: unknown) => Array.isArray(value) && value.every(isSubscriptionPreference),
      defaultMessage: () =>
        'each preference must be a workflow id, {workflowId, enabled?, condition?} or {filter: {workflowIds?, tags?}, enabled?, condition?}',
    },
  })
  preferences?: unknown[];
}

export class DeleteTopicResponseDto {
  @ApiProperty({ description: 'The deletion was accepted', example: true })
  acknowledged: boolean;
}
