import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { CHANNELS, Channel, IDENTIFIER_MAX_LENGTH } from '@app/kernel';
import { EXECUTION_DETAIL_SOURCES, EXECUTION_DETAIL_STATUSES, JOB_STATUSES, STEP_TYPES } from '@app/delivery';
import { PageQueryDto } from '../http/page-query.dto';
import { toArray } from '../http/query-array';
import { ActivitySubscriberResponseDto } from '../shared-dto/subscriber.dto';
import { NotificationTriggerDto, StepFilterDto } from '../shared-dto/workflow.dto';

/** Values one list filter of the activity feed may take at once. */
const MAX_FILTER_VALUES = 100;

export class ListNotificationsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only notifications of this transaction', example: 'order-A-1001' })
  @IsOptional()
  @IsString()
  transactionId?: string;

  @ApiPropertyOptional({ description: "Only notifications of this subscriber (the caller's subscriberId); unknown → 404", example: 'user-123' })
  @IsOptional()
  @IsString()
  subscriberId?: string;

  @ApiPropertyOptional({
    description: 'Only notifications whose workflow has a step of one of these channels; repeat the parameter for several',
    enum: CHANNELS,
    isArray: true,
  })
  @IsOptional()
  @Transform(toArray)
  @ArrayMaxSize(MAX_FILTER_VALUES)
  @IsIn(CHANNELS, { each: true })
  channels?: Channel[];

  @ApiPropertyOptional({ description: 'Only notifications of these workflows (their `_id`); repeat the parameter for several', type: [String] })
  @IsOptional()
  @Transform(toArray)
  @ArrayMaxSize(MAX_FILTER_VALUES)
  @IsString({ each: true })
  @MaxLength(IDENTIFIER_MAX_LENGTH, { each: true })
  templates?: string[];

  @ApiPropertyOptional({
    description: 'Only notifications of subscribers with one of these emails (case-insensitive), or of the `subscriberIds`; repeat the parameter for several',
    type: [String],
  })
  @IsOptional()
  @Transform(toArray)
  @ArrayMaxSize(MAX_FILTER_VALUES)
  @IsString({ each: true })
  @MaxLength(IDENTIFIER_MAX_LENGTH, { each: true })
  emails?: string[];

  @ApiPropertyOptional({
    description: "Only notifications of these subscribers (the caller's subscriberIds), or of the `emails`; unknown ones match nothing",
    type: [String],
  })
  @IsOptional()
  @Transform(toArray)
  @ArrayMaxSize(MAX_FILTER_VALUES)
  @IsString({ each: true })
  @MaxLength(IDENTIFIER_MAX_LENGTH, { each: true })
  subscriberIds?: string[];
}

// ---- responses ----

export class ActivityExecutionDetailResponseDto {
  @ApiProperty({ description: 'Execution detail id' })
  _id: string;
  @ApiProperty({ description: 'When it happened (ISO-8601)' })
  createdAt: string;
  @ApiProperty({ description: 'Outcome of this step of the job', enum: EXECUTION_DETAIL_STATUSES })
  status: string;
  @ApiProperty({ description: 'What happened', example: 'Message sent' })
  detail: string;
  @ApiProperty({ description: 'Whether this was a retry' })
  isRetry: boolean;
  @ApiProperty({ description: 'Whether this was a test send' })
  isTest: boolean;
  @ApiPropertyOptional({ description: 'Provider involved', example: 'novu' })
  providerId?: string;
  @ApiProperty({ description: 'Raw data (JSON text) such as a provider response; null when none', type: String, nullable: true })
  raw: string | null;
  @ApiProperty({ description: 'Where the detail comes from', enum: EXECUTION_DETAIL_SOURCES })
  source: string;
}

export class ActivityStepVariantResponseDto {
  @ApiProperty({ description: 'Workflow step id' })
  _id: string;
  @ApiProperty({ description: 'Id of the step template (of the workflow, when the workflow no longer exists)' })
  _templateId: string;
  @ApiProperty({ description: 'Inactive steps are skipped' })
  active: boolean;
  @ApiPropertyOptional({ description: 'Step name' })
  name?: string;
  @ApiProperty({ description: 'Step conditions', type: [StepFilterDto] })
  filters: StepFilterDto[];
  @ApiPropertyOptional({ description: 'Digest or delay settings', type: 'object', additionalProperties: true })
  metadata?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'The step template (type, content, subject, …)', type: 'object', additionalProperties: true })
  template?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'Id of the previous step in the workflow' })
  _parentId?: string;
}

export class ActivityStepResponseDto extends ActivityStepVariantResponseDto {
  @ApiPropertyOptional({ description: 'Alternatives of this step', type: [ActivityStepVariantResponseDto] })
  variants?: ActivityStepVariantResponseDto[];
}

export class DigestTimedConfigResponseDto {
  @ApiPropertyOptional({ description: 'Time of day the digest fires' })
  atTime?: string;
  @ApiPropertyOptional({ description: 'Week days it fires on', type: [String] })
  weekDays?: string[];
  @ApiPropertyOptional({ description: 'Month days it fires on', type: [Number] })
  monthDays?: number[];
  @ApiPropertyOptional({ description: 'Monthly rule: which occurrence', enum: ['1', '2', '3', '4', '5', 'last'] })
  ordinal?: string;
  @ApiPropertyOptional({ description: 'Monthly rule: of which day kind' })
  ordinalValue?: string;
  @ApiPropertyOptional({ description: 'Monthly rule kind', enum: ['each', 'on'] })
  monthlyType?: string;
  @ApiPropertyOptional({ description: 'Cron expression' })
  cronExpression?: string;
  @ApiPropertyOptional({ description: 'Schedule end' })
  untilDate?: string;
}

export class ActivityDigestResponseDto {
  @ApiProperty({ description: 'Digest kind', enum: ['regular', 'backoff', 'timed'] })
  type: string;
  @ApiPropertyOptional({ description: 'Payload path whose value groups events' })
  digestKey?: string;
  @ApiPropertyOptional({ description: 'Window length' })
  amount?: number;
  @ApiPropertyOptional({ description: 'Window unit', enum: ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'] })
  unit?: string;
  @ApiPropertyOptional({
    description: 'Payloads of the events collected (the first event first)',
    type: 'array',
    items: { type: 'object', additionalProperties: true },
  })
  events?: Record<string, unknown>[];
  @ApiPropertyOptional({ description: 'Backoff digest: send the first event at once' })
  backoff?: boolean;
  @ApiPropertyOptional({ description: 'Backoff window length' })
  backoffAmount?: number;
  @ApiPropertyOptional({ description: 'Backoff window unit' })
  backoffUnit?: string;
  @ApiPropertyOptional({ description: 'Whether the digest updates in place' })
  updateMode?: boolean;
  @ApiPropertyOptional({ description: 'Timed digest schedule', type: DigestTimedConfigResponseDto })
  timed?: DigestTimedConfigResponseDto;
}

export class ActivityJobResponseDto {
  @ApiProperty({ description: 'Job id' })
  _id: string;
  @ApiProperty({ description: 'Step type the job runs', enum: STEP_TYPES })
  type: string;
  @ApiProperty({ description: 'Job status', enum: JOB_STATUSES })
  status: string;
  @ApiProperty({
    description:
      'Provider the job sends through: its message\'s, from the moment one is selected ("novu" for in-app, for steps without one, and for a channel step not run yet)',
    example: 'sendgrid',
  })
  providerId: string;
  @ApiProperty({ description: 'Payload the job runs with', type: 'object', additionalProperties: true })
  payload: Record<string, unknown>;
  @ApiProperty({ description: 'Overrides of the trigger', type: 'object', additionalProperties: true })
  overrides: Record<string, unknown>;
  @ApiProperty({ description: 'Last change (ISO-8601)' })
  updatedAt: string;
  @ApiPropertyOptional({ description: 'How often a delay or digest was extended to fit the subscriber schedule' })
  scheduleExtensionsCount?: number;
  @ApiPropertyOptional({ description: 'Digest settings and collected events (digest jobs)', type: ActivityDigestResponseDto })
  digest?: ActivityDigestResponseDto;
  @ApiProperty({ description: 'The workflow step the job runs', type: ActivityStepResponseDto })
  step: ActivityStepResponseDto;
  @ApiProperty({ description: 'History of the job, oldest first', type: [ActivityExecutionDetailResponseDto] })
  executionDetails: ActivityExecutionDetailResponseDto[];
}

export class ActivityTemplateResponseDto {
  @ApiProperty({ description: 'Workflow id' })
  _id: string;
  @ApiProperty({ description: 'Workflow name' })
  name: string;
  @ApiPropertyOptional({
    description: 'Where the workflow was made ("novu-cloud-v1": stored and edited through this API)',
    enum: ['novu-cloud', 'novu-cloud-v1', 'external'],
  })
  origin?: string;
  @ApiProperty({ description: 'The workflow trigger', type: [NotificationTriggerDto] })
  triggers: NotificationTriggerDto[];
}

export class ActivityTopicResponseDto {
  @ApiProperty({ description: 'Topic id' })
  _topicId: string;
  @ApiProperty({ description: 'Topic key' })
  topicKey: string;
}

export class ActivityNotificationResponseDto {
  @ApiProperty({ description: 'Notification id' })
  _id: string;
  @ApiProperty({ description: 'Environment id' })
  _environmentId: string;
  @ApiProperty({ description: 'Organization id' })
  _organizationId: string;
  @ApiProperty({ description: 'Internal id of the subscriber' })
  _subscriberId: string;
  @ApiProperty({ description: 'Transaction of the trigger' })
  transactionId: string;
  @ApiProperty({ description: 'Workflow id' })
  _templateId: string;
  @ApiPropertyOptional({ description: "Set when this notification's digest merged into another notification's digest" })
  _digestedNotificationId?: string;
  @ApiProperty({ description: 'Creation time (ISO-8601)' })
  createdAt: string;
  @ApiProperty({ description: 'Last change (ISO-8601)' })
  updatedAt: string;
  @ApiProperty({ description: 'Step types of the workflow', enum: STEP_TYPES, isArray: true })
  channels: string[];
  @ApiProperty({ description: 'The recipient', type: ActivitySubscriberResponseDto })
  subscriber: ActivitySubscriberResponseDto;
  @ApiProperty({ description: 'The workflow', type: ActivityTemplateResponseDto })
  template: ActivityTemplateResponseDto;
  @ApiProperty({ description: 'One job per step run for the subscriber', type: [ActivityJobResponseDto] })
  jobs: ActivityJobResponseDto[];
  @ApiProperty({ description: 'Payload of the trigger', type: 'object', additionalProperties: true })
  payload: Record<string, unknown>;
  @ApiProperty({ description: 'Tags of the workflow', type: [String] })
  tags: string[];
  @ApiPropertyOptional({ description: 'Step controls', type: 'object', additionalProperties: true })
  controls?: Record<string, unknown>;
  @ApiProperty({ description: 'The recipient as given in the trigger', type: 'object', additionalProperties: true })
  to: Record<string, unknown>;
  @ApiProperty({ description: 'Topics the recipient was reached through', type: [ActivityTopicResponseDto] })
  topics: ActivityTopicResponseDto[];
  @ApiPropertyOptional({ description: 'Severity', enum: ['high', 'medium', 'low', 'none'] })
  severity?: string;
  @ApiProperty({ description: 'Whether the workflow is critical (ignores subscriber preferences)' })
  critical: boolean;
  @ApiPropertyOptional({
    description: 'The contexts the trigger named, as `type:id` keys; absent when it named none',
    type: [String],
    example: ['tenant:acme'],
  })
  contextKeys?: string[];
}

export class ActivityNotificationsResponseDto {
  @ApiProperty({ description: 'One page of notifications, newest first', type: [ActivityNotificationResponseDto] })
  data: ActivityNotificationResponseDto[];
  @ApiProperty({ description: 'Notifications matching the query' })
  totalCount: number;
  @ApiProperty({ description: 'Whether later pages hold more notifications' })
  hasMore: boolean;
  @ApiProperty({ description: 'Page size asked for' })
  pageSize: number;
  @ApiProperty({ description: 'This page (from 0)' })
  page: number;
}
