import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsDefined,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';
import { ACTOR_TYPES, DIGEST_TYPES, DELAY_TYPES, MONTHLY_TYPES, ORDINALS, ORDINAL_VALUES, V1_STEP_TYPES, TIME_UNITS, WEEK_DAYS } from '@app/workflows';
import { PageQueryDto } from '../http/page-query.dto';
import { NotificationTriggerDto, StepFilterDto } from '../shared-dto/workflow.dto';

const NAME_MAX = 256;
const TEXT_MAX = 100_000;
const MAX_STEPS = 100;
const MAX_EMAIL_BLOCKS = 500;
const METADATA_TYPES = [...new Set([...DIGEST_TYPES, ...DELAY_TYPES])];

function isEmailBlock(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const block = value as Record<string, unknown>;
  const styles = block.styles as Record<string, unknown> | undefined;
  return (
    (block.type === 'text' || block.type === 'button') &&
    typeof block.content === 'string' &&
    block.content.length <= TEXT_MAX &&
    (block.url === undefined || typeof block.url === 'string') &&
    (styles === undefined ||
      (typeof styles === 'object' && styles !== null && (styles.textAlign === undefined || ['left', 'right', 'center'].includes(styles.textAlign as string))))
  );
}

/** A template body: a string, or (email editor) an array of blocks. */
function IsTemplateContent(options?: ValidationOptions) {
  return ValidateBy(
    {
      name: 'isTemplateContent',
      validator: {
        validate: (value: unknown) =>
          (typeof value === 'string' && value.length <= TEXT_MAX) || (Array.isArray(value) && value.length <= MAX_EMAIL_BLOCKS && value.every(isEmailBlock)),
        defaultMessage: () =>
          `content must be a string (at most ${TEXT_MAX} characters) or an array of email blocks {type: "text"|"button", content, url?, styles?: {textAlign}}`,
      },
    },
    options,
  );
}

export class PreferenceChannelsDto {
  @ApiPropertyOptional({ description: 'Email on by default', example: true })
  @IsOptional()
  @IsBoolean()
  email?: boolean;

  @ApiPropertyOptional({ description: 'SMS on by default', example: true })
  @IsOptional()
  @IsBoolean()
  sms?: boolean;

  @ApiPropertyOptional({ description: 'In-app on by default', example: true })
  @IsOptional()
  @IsBoolean()
  in_app?: boolean;

  @ApiPropertyOptional({ description: 'Chat on by default', example: true })
  @IsOptional()
  @IsBoolean()
  chat?: boolean;

  @ApiPropertyOptional({ description: 'Push on by default', example: true })
  @IsOptional()
  @IsBoolean()
  push?: boolean;
}

export class CtaButtonDto {
  @ApiProperty({ description: 'Button style', enum: ['primary', 'secondary'] })
  @IsIn(['primary', 'secondary'])
  type: 'primary' | 'secondary';

  @ApiProperty({ description: 'Button label', example: 'Accept' })
  @IsString()
  @MaxLength(NAME_MAX)
  content: string;

  @ApiPropertyOptional({ description: 'Label shown once the button was clicked' })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  resultContent?: string;
}

export class CtaDataDto {
  @ApiPropertyOptional({ description: 'Where a click leads (may use template variables)', example: '/tasks/{{payload.taskId}}' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  url?: string;
}

export class CtaActionDto {
  @ApiPropertyOptional({ description: 'Action buttons of an in-app message', type: [CtaButtonDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5)
  @ValidateNested({ each: true })
  @Type(() => CtaButtonDto)
  buttons?: CtaButtonDto[];
}

export class MessageCtaDto {
  @ApiProperty({ description: 'Call-to-action kind', enum: ['redirect'], example: 'redirect' })
  @IsIn(['redirect'])
  type: 'redirect';

  @ApiPropertyOptional({ description: 'Redirect target', type: CtaDataDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CtaDataDto)
  data?: CtaDataDto;

  @ApiPropertyOptional({ description: 'Buttons', type: CtaActionDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CtaActionDto)
  action?: CtaActionDto;
}

export class StepActorDto {
  @ApiProperty({ description: "`user`: the trigger's actor; `system_icon`: an icon name; `system_custom`: an image URL; `none`: no avatar", enum: ACTOR_TYPES })
  @IsIn(ACTOR_TYPES)
  type: (typeof ACTOR_TYPES)[number];

  @ApiPropertyOptional({ description: 'The icon name or URL (null for user and none)', type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  data?: string | null;
}

export class TemplateVariableDto {
  @ApiProperty({ description: 'Payload path, dotted for nested fields', example: 'user.lastName' })
  @IsString()
  @MaxLength(256)
  name: string;

  @ApiPropertyOptional({ description: 'Variable type (Novu: String, Array, Boolean)', example: 'String' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  type?: string;

  @ApiPropertyOptional({ description: 'Whether the trigger must give it (informational)' })
  @IsOptional()
  @IsBoolean()
  required?: boolean;

  @ApiPropertyOptional({ description: 'Used when the trigger payload leaves the field out', example: 'John Doe' })
  @IsOptional()
  defaultValue?: unknown;
}

export class StepTemplateDto {
  @ApiPropertyOptional({ description: 'Id of an existing template (kept on update)' })
  @IsOptional()
  @IsString()
  _id?: string;

  @ApiProperty({ description: 'Step type', enum: V1_STEP_TYPES, example: 'email' })
  @IsIn(V1_STEP_TYPES)
  type: (typeof V1_STEP_TYPES)[number];

  @ApiPropertyOptional({ description: 'Template name' })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  name?: string;

  @ApiPropertyOptional({
    description: 'Body: a template string, or for email an array of editor blocks',
    oneOf: [
      { type: 'string', example: 'Hello {{subscriber.firstName}}, {{payload.message}}' },
      {
        type: 'array',
        items: {
          type: 'object',
          required: ['type', 'content'],
          properties: {
            type: { type: 'string', enum: ['text', 'button'] },
            content: { type: 'string' },
            url: { type: 'string' },
            styles: { type: 'object', properties: { textAlign: { type: 'string', enum: ['left', 'right', 'center'] } } },
          },
        },
      },
    ],
  })
  @IsOptional()
  @IsTemplateContent()
  content?: string | Record<string, unknown>[];

  @ApiPropertyOptional({ description: 'Email: how `content` is written', enum: ['editor', 'customHtml'] })
  @IsOptional()
  @IsIn(['editor', 'customHtml'])
  contentType?: 'editor' | 'customHtml';

  @ApiPropertyOptional({ description: 'Email subject', example: 'Welcome, {{subscriber.firstName}}' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  subject?: string;

  @ApiPropertyOptional({ description: 'Email preheader' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  preheader?: string;

  @ApiPropertyOptional({ description: 'Push title' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  title?: string;

  @ApiPropertyOptional({ description: 'Email sender name' })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  senderName?: string;

  @ApiPropertyOptional({ description: 'In-app call to action', type: MessageCtaDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => MessageCtaDto)
  cta?: MessageCtaDto;

  @ApiPropertyOptional({ description: 'In-app avatar URL' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  avatar?: string;

  @ApiPropertyOptional({ description: 'Payload variables of the step; their defaultValue fills fields the trigger leaves out', type: [TemplateVariableDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => TemplateVariableDto)
  variables?: TemplateVariableDto[];

  @ApiPropertyOptional({ description: "In-app avatar (Novu's actor option): the trigger's actor, a system icon, a custom URL, or none", type: StepActorDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => StepActorDto)
  actor?: StepActorDto;
}

export class TimedConfigDto {
  @ApiPropertyOptional({ description: 'Time of day the digest fires, HH:mm (24-hour)', example: '09:30' })
  @IsOptional()
  @IsString()
  atTime?: string;

  @ApiPropertyOptional({ description: 'Days of the week (weekly digests)', enum: WEEK_DAYS, isArray: true })
  @IsOptional()
  @IsArray()
  @IsIn(WEEK_DAYS, { each: true })
  weekDays?: (typeof WEEK_DAYS)[number][];

  @ApiPropertyOptional({ description: 'Days of the month (monthly digests)', type: [Number], example: [1, 15] })
  @IsOptional()
  @IsArray()
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(31, { each: true })
  monthDays?: number[];

  @ApiPropertyOptional({ description: 'Which occurrence (monthlyType "on")', enum: ORDINALS })
  @IsOptional()
  @IsIn(ORDINALS)
  ordinal?: (typeof ORDINALS)[number];

  @ApiPropertyOptional({ description: 'Which kind of day (monthlyType "on")', enum: ORDINAL_VALUES })
  @IsOptional()
  @IsIn(ORDINAL_VALUES)
  ordinalValue?: (typeof ORDINAL_VALUES)[number];

  @ApiPropertyOptional({ description: '"each" listed monthDays, or "on" the ordinal day', enum: MONTHLY_TYPES })
  @IsOptional()
  @IsIn(MONTHLY_TYPES)
  monthlyType?: (typeof MONTHLY_TYPES)[number];

  @ApiPropertyOptional({ description: 'Cron expression; wins over the other fields', example: '0 9 * * 1-5' })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  cronExpression?: string;
}

export class StepMetadataDto {
  @ApiPropertyOptional({
    description:
      'Digest: regular | backoff | timed. Delay: regular (amount, unit), scheduled (delayPath) or dynamic (dynamicKey: the wait is read from the payload when the step runs)',
    enum: METADATA_TYPES,
  })
  @IsOptional()
  @IsIn(METADATA_TYPES)
  type?: string;

  @ApiPropertyOptional({ description: 'Window length (regular digest, regular delay)', example: 5 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  amount?: number;

  @ApiPropertyOptional({ description: 'Unit of amount', enum: TIME_UNITS, example: 'minutes' })
  @IsOptional()
  @IsIn(TIME_UNITS)
  unit?: (typeof TIME_UNITS)[number];

  @ApiPropertyOptional({ description: 'Digest: payload path whose value buckets events', example: 'postId' })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  digestKey?: string;

  @ApiPropertyOptional({ description: 'Digest: only digest when another event came within the backoff window' })
  @IsOptional()
  @IsBoolean()
  backoff?: boolean;

  @ApiPropertyOptional({ description: 'Digest: backoff window length', example: 1 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  backoffAmount?: number;

  @ApiPropertyOptional({ description: 'Digest: unit of backoffAmount', enum: TIME_UNITS })
  @IsOptional()
  @IsIn(TIME_UNITS)
  backoffUnit?: (typeof TIME_UNITS)[number];

  @ApiPropertyOptional({ description: 'Digest: stored for Novu compatibility (no behaviour in Novu either)' })
  @IsOptional()
  @IsBoolean()
  updateMode?: boolean;

  @ApiPropertyOptional({ description: 'Timed digest schedule', type: TimedConfigDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => TimedConfigDto)
  timed?: TimedConfigDto;

  @ApiPropertyOptional({ description: 'Scheduled delay: payload path of the ISO date to wait for', example: 'sendAt' })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  delayPath?: string;

  @ApiPropertyOptional({
    description:
      "Dynamic delay (Novu's name): `payload.` and the path of a value read when the step runs, either an ISO-8601 date-time to wait for " +
      '(UTC when it names no zone) or `{amount, unit}` to wait (unit: seconds, minutes, hours, days, weeks, months). A missing, malformed or past ' +
      'value fails the delay job (its error names why) and cancels the steps after it, as Novu',
    example: 'payload.sendAt',
  })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  dynamicKey?: string;
}

export class ReplyCallbackDto {
  @ApiProperty({
    description:
      'Whether replies are forwarded (email steps): with INBOUND_MAIL_DOMAIN set, the email is sent with a signed Reply-To there, and each reply the ' +
      'inbound mail receiver takes is POSTed, parsed, to `url`, signed with the secret of GET /v2/outbound-webhooks/reply-callback-secret',
    example: false,
  })
  @IsBoolean()
  active: boolean;

  @ApiPropertyOptional({
    description:
      'Where replies are posted (`{type: "reply.received", timestamp, data: {from, to, subject, text, html, attachments, transactionId, subscriberId, workflowId, stepId, …}}`, Standard Webhooks and svix-* headers)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  url?: string;
}

export class StepVariantRequestDto {
  @ApiPropertyOptional({ description: 'Id of an existing step: its ids are kept on update' })
  @IsOptional()
  @IsString()
  _id?: string;

  @ApiPropertyOptional({ description: 'Stable step uuid (generated when absent)' })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  uuid?: string;

  @ApiPropertyOptional({ description: 'Step name (defaults to the type)', example: 'Welcome email' })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  name?: string;

  @ApiPropertyOptional({ description: 'Inactive steps are skipped', default: true })
  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ description: 'Stop the workflow when this step fails', default: false })
  @IsOptional()
  @IsBoolean()
  shouldStopOnFail?: boolean;

  @ApiProperty({ description: 'What the step sends (or, for digest/delay, just its type)', type: StepTemplateDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => StepTemplateDto)
  template: StepTemplateDto;

  @ApiPropertyOptional({ description: 'Step conditions; several filters are OR-ed', type: [StepFilterDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => StepFilterDto)
  filters?: StepFilterDto[];

  @ApiPropertyOptional({ description: 'Digest or delay settings (required for those types, ignored for channel steps)', type: StepMetadataDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => StepMetadataDto)
  metadata?: StepMetadataDto;

  @ApiPropertyOptional({ description: 'Reply forwarding (email)', type: ReplyCallbackDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ReplyCallbackDto)
  replyCallback?: ReplyCallbackDto;
}

export class StepRequestDto extends StepVariantRequestDto {
  @ApiPropertyOptional({
    description:
      'Alternatives of this step, tried in order when it runs: the first active one whose filters pass (subscriber, payload, tenant, as step filters) is rendered and sent instead of the step; the job\'s execution details name it ("Step variant selected"). None passing: the step itself',
    type: [StepVariantRequestDto],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => StepVariantRequestDto)
  variants?: StepVariantRequestDto[];
}

/** Fields create and update share; `name` differs (required on create), so it lives in the subclasses. */
class WorkflowFieldsDto {
  @ApiPropertyOptional({
    description: 'Trigger identifier (what `POST /v1/events/trigger` names); unique in the environment. Defaults to the slug of the name',
    example: 'welcome',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  identifier?: string;

  @ApiPropertyOptional({ description: 'Free text' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  description?: string;

  @ApiPropertyOptional({ description: 'Tags', type: [String], example: ['onboarding'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(NAME_MAX, { each: true })
  tags?: string[];

  @ApiPropertyOptional({ description: 'Only active workflows deliver; as Novu, a new workflow is inactive (a draft) unless this is true', default: false })
  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ description: 'Critical workflows ignore subscriber preferences and quiet hours', default: false })
  @IsOptional()
  @IsBoolean()
  critical?: boolean;

  @ApiPropertyOptional({ description: 'Default channel preferences (all on when left out)', type: PreferenceChannelsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PreferenceChannelsDto)
  preferenceSettings?: PreferenceChannelsDto;

  @ApiPropertyOptional({ description: 'Any JSON object kept with the workflow', type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown>;

  @ApiPropertyOptional({ description: "Notification group id (defaults to the environment's General group)" })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  notificationGroupId?: string;

  @ApiPropertyOptional({ description: 'The steps, in order (on update: replaces the list)', type: [StepRequestDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_STEPS)
  @ValidateNested({ each: true })
  @Type(() => StepRequestDto)
  steps?: StepRequestDto[];
}

export class CreateWorkflowRequestDto extends WorkflowFieldsDto {
  @ApiProperty({ description: 'Display name', example: 'Welcome' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name: string;
}

export class UpdateWorkflowRequestDto extends WorkflowFieldsDto {
  @ApiPropertyOptional({ description: 'Display name', example: 'Welcome' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name?: string;
}

export class ChangeWorkflowStatusRequestDto {
  @ApiProperty({ description: 'true switches the workflow on, false off (a draft)', example: true })
  @IsBoolean()
  active: boolean;
}

export class ListWorkflowsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Case-insensitive search in the name and the trigger identifier', example: 'welcome' })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  query?: string;
}

// ---- responses ----

export class NotificationGroupDto {
  @ApiProperty({ description: 'Group id' })
  _id: string;
  @ApiProperty({ description: 'Group name', example: 'General' })
  name: string;
  @ApiProperty({ description: 'Environment id' })
  _environmentId: string;
  @ApiProperty({ description: 'Organization id' })
  _organizationId: string;
}

/** Same fields as the request, `_id` always set. */
export class StepTemplateResponseDto extends StepTemplateDto {}

export class StepVariantResponseDto {
  @ApiProperty({ description: 'Step id' })
  _id: string;
  @ApiProperty({ description: 'Stable step uuid' })
  uuid: string;
  @ApiProperty({ description: 'Step name' })
  name: string;
  @ApiProperty({ description: 'Id of the step template' })
  _templateId: string;
  @ApiProperty({ description: 'Inactive steps are skipped' })
  active: boolean;
  @ApiProperty({ description: 'Stop the workflow when this step fails' })
  shouldStopOnFail: boolean;
  @ApiProperty({ description: 'The step template', type: StepTemplateResponseDto })
  template: StepTemplateResponseDto;
  @ApiProperty({ description: 'Step conditions', type: [StepFilterDto] })
  filters: StepFilterDto[];
  @ApiPropertyOptional({ description: 'Digest or delay settings', type: StepMetadataDto })
  metadata?: StepMetadataDto;
  @ApiPropertyOptional({ description: 'Reply forwarding', type: ReplyCallbackDto })
  replyCallback?: ReplyCallbackDto;
}

export class StepResponseDto extends StepVariantResponseDto {
  @ApiProperty({ description: 'Alternatives of this step', type: [StepVariantResponseDto] })
  variants: StepVariantResponseDto[];
}

export class WorkflowResponseDto {
  @ApiProperty({ description: 'Workflow id' })
  _id: string;
  @ApiProperty({ description: 'Display name' })
  name: string;
  @ApiProperty({ description: 'Free text ("" when not set)' })
  description: string;
  @ApiProperty({ description: 'Only active workflows deliver' })
  active: boolean;
  @ApiProperty({ description: 'True while the workflow is inactive' })
  draft: boolean;
  @ApiProperty({ description: 'Default channel preferences', type: PreferenceChannelsDto })
  preferenceSettings: PreferenceChannelsDto;
  @ApiProperty({ description: 'Critical workflows ignore subscriber preferences' })
  critical: boolean;
  @ApiProperty({ description: 'Tags', type: [String] })
  tags: string[];
  @ApiProperty({ description: 'Steps, in order', type: [StepResponseDto] })
  steps: StepResponseDto[];
  @ApiProperty({ description: 'Organization id' })
  _organizationId: string;
  @ApiProperty({ description: 'Id of the API key that created it' })
  _creatorId: string;
  @ApiProperty({ description: 'Environment id' })
  _environmentId: string;
  @ApiProperty({ description: 'The trigger (one, of type event)', type: [NotificationTriggerDto] })
  triggers: NotificationTriggerDto[];
  @ApiProperty({ description: 'Notification group id' })
  _notificationGroupId: string;
  @ApiPropertyOptional({ description: "The environment's General group, when the workflow is in it", type: NotificationGroupDto })
  notificationGroup?: NotificationGroupDto;
  @ApiProperty({ description: 'Whether the workflow was deleted' })
  deleted: boolean;
  @ApiProperty({ description: 'When it was deleted (ISO-8601); "" while live (Novu\'s schema requires the field)' })
  deletedAt: string;
  @ApiProperty({ description: 'Who deleted it; "" while live (Novu\'s schema requires the field)' })
  deletedBy: string;
  @ApiPropertyOptional({ description: 'Custom data', type: 'object', additionalProperties: true })
  data?: Record<string, unknown>;
  @ApiProperty({ description: 'Creation time (ISO-8601)' })
  createdAt: string;
  @ApiProperty({ description: 'Last change (ISO-8601)' })
  updatedAt: string;
}

export class WorkflowListResponseDto {
  @ApiProperty({ description: 'One page of workflows, newest first', type: [WorkflowResponseDto] })
  data: WorkflowResponseDto[];
  @ApiProperty({ description: 'Workflows matching the query' })
  totalCount: number;
  @ApiProperty({ description: 'This page (from 0)' })
  page: number;
  @ApiProperty({ description: 'Page size asked for' })
  pageSize: number;
}
