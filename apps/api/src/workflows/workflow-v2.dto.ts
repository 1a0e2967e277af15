import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsMongoId,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { SEVERITY_LEVELS, STEP_TYPES, TRIGGER_IDENTIFIER_MAX_LENGTH, TRIGGER_IDENTIFIER_PATTERN, WORKFLOW_ORIGINS } from '@app/workflows';
import { toArray } from '../http/query-array';

const NAME_MAX = 256;
const MAX_STEPS = 100;
const MAX_TAGS = 16;
/** The step types of Novu v2 this service does not run: they need Novu's Bridge (custom) or its agents (tool). */
export const UNSUPPORTED_V2_STEP_TYPES = ['custom', 'tool'] as const;
const V2_STEP_TYPES = [...STEP_TYPES, ...UNSUPPORTED_V2_STEP_TYPES];
const SKIP_DESCRIPTION =
  'The step’s conditions, as Novu’s dashboard keeps them: JSON Logic (https://jsonlogic.com) over `payload`, `subscriber` and earlier steps (`steps.<stepId>`) saying when the step runs; it is skipped when they do not hold';

// ---- controls (documentation of each step type's controlValues) ----

export class RedirectV2Dto {
  @ApiProperty({ description: 'Where the click leads', example: 'https://example.com/orders/42' })
  url: string;
  @ApiPropertyOptional({ description: 'How the link opens', enum: ['_self', '_blank', '_parent', '_top', '_unfencedTop'], example: '_blank' })
  target?: string;
}

export class ActionV2Dto {
  @ApiPropertyOptional({ description: 'Button label', example: 'View order' })
  label?: string;
  @ApiPropertyOptional({ description: 'Where the button leads', type: RedirectV2Dto })
  redirect?: RedirectV2Dto;
}

export class InAppControlsDto {
  @ApiPropertyOptional({ description: SKIP_DESCRIPTION, example: { '==': [{ var: 'payload.muted' }, true] } })
  skip?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'Body (Liquid)', example: 'Your order {{payload.orderId}} shipped' })
  body?: string;
  @ApiPropertyOptional({ description: 'Subject (Liquid)', example: 'Order shipped' })
  subject?: string;
  @ApiPropertyOptional({ description: 'Avatar URL', example: 'https://example.com/avatar.png' })
  avatar?: string;
  @ApiPropertyOptional({ description: 'Primary action button', type: ActionV2Dto })
  primaryAction?: ActionV2Dto;
  @ApiPropertyOptional({ description: 'Secondary action button', type: ActionV2Dto })
  secondaryAction?: ActionV2Dto;
  @ApiPropertyOptional({ description: 'Where a click on the notification leads', type: RedirectV2Dto })
  redirect?: RedirectV2Dto;
  @ApiPropertyOptional({ description: 'Data handed to the Inbox with the notification (string values rendered)', example: { orderId: '{{payload.orderId}}' } })
  data?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'Leave rendered values unsanitised (HTML passes as written)', default: false })
  disableOutputSanitization?: boolean;
}

export class EmailFromV2Dto {
  @ApiPropertyOptional({ description: 'From address (default: the integration’s)', example: 'orders@example.com' })
  email?: string;
  @ApiPropertyOptional({ description: 'Sender name', example: 'Example Shop' })
  name?: string;
}

export class EmailControlsDto {
  @ApiPropertyOptional({ description: SKIP_DESCRIPTION })
  skip?: Record<string, unknown>;
  @ApiProperty({ description: 'Subject (Liquid)', example: 'Your order {{payload.orderId}}' })
  subject: string;
  @ApiPropertyOptional({
    description: 'Body: HTML (`editorType: html`) or Novu’s block editor document as a JSON string (`editorType: block`)',
    example: '<p>Hello {{subscriber.firstName}}</p>',
  })
  body?: string;
  @ApiPropertyOptional({ description: 'What the body is', enum: ['block', 'html'], default: 'block', example: 'html' })
  editorType?: string;
  @ApiPropertyOptional({ description: 'Leave rendered values unsanitised', default: false })
  disableOutputSanitization?: boolean;
  @ApiPropertyOptional({
    description:
      'Email layout the body is sent in, by its layoutId (or `_id`; stored as the layoutId; 422 when the environment has no such layout); null: none, the body alone; left out: the environment’s default layout, else the service’s own',
    nullable: true,
    example: null,
  })
  layoutId?: string | null;
  @ApiPropertyOptional({ description: 'Sender', type: EmailFromV2Dto })
  from?: EmailFromV2Dto;
  @ApiPropertyOptional({ description: 'Send with the integration’s sender, ignoring `from`', default: false })
  useProviderDefaults?: boolean;
  @ApiPropertyOptional({ description: 'Reply-To address', example: 'support@example.com' })
  replyTo?: string;
  @ApiPropertyOptional({ description: 'Preview text shown after the subject', example: 'It is on its way' })
  preheader?: string;
}

export class SmsControlsDto {
  @ApiPropertyOptional({ description: SKIP_DESCRIPTION })
  skip?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'Text (Liquid)', example: 'Your code is {{payload.code}}' })
  body?: string;
}

export class ChatControlsDto {
  @ApiPropertyOptional({ description: SKIP_DESCRIPTION })
  skip?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'Text (Liquid)', example: 'New order {{payload.orderId}}' })
  body?: string;
  @ApiPropertyOptional({ description: 'How the body is edited', enum: ['block', 'text'], example: 'text' })
  editorType?: string;
}

export class PushControlsDto {
  @ApiPropertyOptional({ description: SKIP_DESCRIPTION })
  skip?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'Title (Liquid)', example: 'Order shipped' })
  subject?: string;
  @ApiPropertyOptional({ description: 'Body (Liquid)', example: 'Order {{payload.orderId}} is on its way' })
  body?: string;
}

export class DelayControlsDto {
  @ApiPropertyOptional({ description: SKIP_DESCRIPTION })
  skip?: Record<string, unknown>;
  @ApiPropertyOptional({
    description:
      '`regular`: amount × unit; `timed`: until the next time `cron` names (in the subscriber’s timezone); `dynamic`: `dynamicKey` names a payload path',
    enum: ['regular', 'timed', 'dynamic'],
    default: 'regular',
  })
  type?: string;
  @ApiPropertyOptional({ description: 'How long (regular)', example: 5 })
  amount?: number;
  @ApiPropertyOptional({ description: 'Unit of amount', enum: ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'], example: 'minutes' })
  unit?: string;
  @ApiPropertyOptional({ description: 'Cron expression (timed)', example: '0 9 * * 1-5' })
  cron?: string;
  @ApiPropertyOptional({ description: 'Payload path to an ISO date or `{amount, unit}` (dynamic)', example: 'payload.sendAt' })
  dynamicKey?: string;
}

export class LookBackWindowV2Dto {
  @ApiProperty({ description: 'Window length', example: 5 })
  amount: number;
  @ApiProperty({ description: 'Unit of amount', enum: ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'], example: 'minutes' })
  unit: string;
}

export class DigestControlsDto {
  @ApiPropertyOptional({ description: SKIP_DESCRIPTION })
  skip?: Record<string, unknown>;
  @ApiPropertyOptional({
    description: '`regular`: collect for amount × unit; `timed`: until the next time `cron` names',
    enum: ['regular', 'timed'],
    default: 'regular',
  })
  type?: string;
  @ApiPropertyOptional({ description: 'Window length (regular)', example: 10 })
  amount?: number;
  @ApiPropertyOptional({ description: 'Unit of amount', enum: ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'], example: 'minutes' })
  unit?: string;
  @ApiPropertyOptional({
    description: 'Digest only when another event came within this window before; otherwise the event is sent at once (regular)',
    type: LookBackWindowV2Dto,
  })
  lookBackWindow?: LookBackWindowV2Dto;
  @ApiPropertyOptional({ description: 'Cron expression (timed)', example: '0 18 * * *' })
  cron?: string;
  @ApiPropertyOptional({ description: 'Payload path whose value groups events into separate digests', example: 'payload.postId' })
  digestKey?: string;
}

export class ThrottleControlsDto {
  @ApiPropertyOptional({ description: SKIP_DESCRIPTION })
  skip?: Record<string, unknown>;
  @ApiPropertyOptional({
    description: '`fixed`: a window of amount × unit; `dynamic`: the window from `dynamicKey`',
    enum: ['fixed', 'dynamic'],
    default: 'fixed',
  })
  type?: string;
  @ApiPropertyOptional({ description: 'Window length (fixed)', example: 1 })
  amount?: number;
  @ApiPropertyOptional({ description: 'Unit of amount', enum: ['minutes', 'hours', 'days'], example: 'hours' })
  unit?: string;
  @ApiPropertyOptional({ description: 'Payload path holding the window (dynamic)', example: 'payload.throttleWindow' })
  dynamicKey?: string;
  @ApiPropertyOptional({ description: 'Runs allowed per key in a window; the others stop the steps after this one', example: 3 })
  threshold?: number;
  @ApiPropertyOptional({ description: 'What runs are counted by (default: the subscriber and the workflow)', example: '{{payload.projectId}}' })
  throttleKey?: string;
}

export class KeyValueV2Dto {
  @ApiProperty({ description: 'Name', example: 'Content-Type' })
  key: string;
  @ApiProperty({ description: 'Value (Liquid)', example: 'application/json' })
  value: string;
}

export class HttpRequestControlsDto {
  @ApiPropertyOptional({ description: SKIP_DESCRIPTION })
  skip?: Record<string, unknown>;
  @ApiProperty({ description: 'HTTP method', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], example: 'POST' })
  method: string;
  @ApiProperty({ description: 'URL (Liquid)', example: 'https://api.example.com/users/{{subscriber.subscriberId}}' })
  url: string;
  @ApiPropertyOptional({ description: 'Headers (values are Liquid; secrets are masked wherever the step is shown)', type: [KeyValueV2Dto] })
  headers?: KeyValueV2Dto[];
  @ApiPropertyOptional({ description: 'Body: a Liquid template, or pairs sent as a JSON object', example: '{"orderId": "{{payload.orderId}}"}' })
  body?: string | KeyValueV2Dto[];
  @ApiPropertyOptional({ description: 'JSON Schema the answer’s body must match (with enforceSchemaValidation)', example: { type: 'object' } })
  responseBodySchema?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'Fail the step when the answer does not match responseBodySchema', default: false })
  enforceSchemaValidation?: boolean;
  @ApiPropertyOptional({ description: 'Let the workflow go on when the call fails', default: false })
  continueOnFailure?: boolean;
}

const CONTROL_MODELS = [
  InAppControlsDto,
  EmailControlsDto,
  SmsControlsDto,
  ChatControlsDto,
  PushControlsDto,
  DelayControlsDto,
  DigestControlsDto,
  ThrottleControlsDto,
  HttpRequestControlsDto,
];
const controlsSchema = { oneOf: CONTROL_MODELS.map((model) => ({ $ref: getSchemaPath(model) })) };

// ---- requests ----

@ApiExtraModels(...CONTROL_MODELS)
export class StepUpsertV2Dto {
  @ApiPropertyOptional({
    description: 'The step’s database id, to update that step (else a step of the same stepId, else a new one)',
    example: '66a1f0c2e4b0a1b2c3d4e5f7',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  _id?: string;

  @ApiPropertyOptional({ description: 'The step’s identifier in the workflow (default: the slug of the name)', example: 'send-email' })
  @IsOptional()
  @IsString()
  @Matches(/^[a-zA-Z0-9_.:-]+$/, { message: 'stepId may only hold letters, digits, "-", "_", ".", ":"' })
  @MaxLength(TRIGGER_IDENTIFIER_MAX_LENGTH)
  stepId?: string;

  @ApiProperty({ description: 'Step name', example: 'Send email' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name: string;

  @ApiProperty({ description: 'Step type (`custom` and `tool` are refused: they need Novu’s Bridge or agents)', enum: V2_STEP_TYPES, example: 'email' })
  @IsIn(V2_STEP_TYPES)
  type: (typeof V2_STEP_TYPES)[number];

  @ApiPropertyOptional({ description: 'The step’s controls; which fields depend on the type', ...controlsSchema })
  @IsOptional()
  @IsObject()
  controlValues?: Record<string, unknown>;
}

export class WorkflowPreferenceV2Dto {
  @ApiPropertyOptional({ description: 'Default of every channel', example: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
  @ApiPropertyOptional({ description: 'Subscribers may not change these preferences (the workflow is critical)', example: false })
  @IsOptional()
  @IsBoolean()
  readOnly?: boolean;
}

export class ChannelPreferenceV2Dto {
  @ApiPropertyOptional({ description: 'Channel on or off', example: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class WorkflowPreferencesV2Dto {
  @ApiProperty({ description: 'Every channel', type: WorkflowPreferenceV2Dto })
  @ValidateNested()
  @Type(() => WorkflowPreferenceV2Dto)
  all: WorkflowPreferenceV2Dto;

  @ApiProperty({
    description: 'Per channel (in_app, email, sms, chat, push); a channel left out follows `all.enabled`',
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(ChannelPreferenceV2Dto) },
    example: { email: { enabled: true }, sms: { enabled: false } },
  })
  @IsObject()
  channels: Record<string, ChannelPreferenceV2Dto>;
}

@ApiExtraModels(ChannelPreferenceV2Dto)
export class PreferencesRequestV2Dto {
  @ApiPropertyOptional({ description: 'Preferences set for subscribers (they apply first)', type: WorkflowPreferencesV2Dto, nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => WorkflowPreferencesV2Dto)
  user?: WorkflowPreferencesV2Dto | null;

  @ApiPropertyOptional({ description: 'The workflow’s own defaults (apply when `user` is not set)', type: WorkflowPreferencesV2Dto, nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => WorkflowPreferencesV2Dto)
  workflow?: WorkflowPreferencesV2Dto | null;
}

export class PatchWorkflowV2Dto {
  @ApiPropertyOptional({ description: 'Whether triggers run it', example: true })
  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ description: 'Workflow name', example: 'Order shipped' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name?: string;

  @ApiPropertyOptional({ description: 'Description', example: 'Tells the customer their order left the warehouse' })
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string;

  @ApiPropertyOptional({ description: 'Tags', type: [String], example: ['orders'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_TAGS)
  @IsString({ each: true })
  @MaxLength(NAME_MAX, { each: true })
  tags?: string[];

  @ApiPropertyOptional({
    description: 'JSON Schema of the trigger payload (null clears it); its defaults fill a payload that leaves them out',
    nullable: true,
    example: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
  })
  @IsOptional()
  @IsObject()
  payloadSchema?: Record<string, unknown> | null;

  @ApiPropertyOptional({ description: 'Refuse (400) a trigger whose payload does not match payloadSchema', example: true })
  @IsOptional()
  @IsBoolean()
  validatePayload?: boolean;

  @ApiPropertyOptional({ description: 'Stored and shown; translations are not served yet', example: false })
  @IsOptional()
  @IsBoolean()
  isTranslationEnabled?: boolean;
}

export class UpdateWorkflowV2Dto extends PatchWorkflowV2Dto {
  @ApiProperty({ description: 'Workflow name', example: 'Order shipped' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  declare name: string;

  @ApiPropertyOptional({ description: 'The trigger identifier; changing it renames the workflow’s trigger', example: 'order-shipped' })
  @IsOptional()
  @IsString()
  @Matches(TRIGGER_IDENTIFIER_PATTERN, { message: 'workflowId may only hold letters, digits, "-", "_", ".", ":"' })
  @MaxLength(TRIGGER_IDENTIFIER_MAX_LENGTH)
  workflowId?: string;

  @ApiProperty({ description: 'The steps, in order; a step not listed is removed', type: [StepUpsertV2Dto] })
  @IsArray()
  @ArrayMaxSize(MAX_STEPS)
  @ValidateNested({ each: true })
  @Type(() => StepUpsertV2Dto)
  steps: StepUpsertV2Dto[];

  @ApiPropertyOptional({ description: 'Channel preferences', type: PreferencesRequestV2Dto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PreferencesRequestV2Dto)
  preferences?: PreferencesRequestV2Dto;

  @ApiPropertyOptional({ description: 'Where the workflow comes from', enum: WORKFLOW_ORIGINS, example: 'novu-cloud' })
  @IsOptional()
  @IsIn(WORKFLOW_ORIGINS)
  origin?: (typeof WORKFLOW_ORIGINS)[number];

  @ApiPropertyOptional({ description: 'Severity, shown to the Inbox with each notification', enum: SEVERITY_LEVELS, example: 'none' })
  @IsOptional()
  @IsIn(SEVERITY_LEVELS)
  severity?: (typeof SEVERITY_LEVELS)[number];
}

export class CreateWorkflowV2Dto extends UpdateWorkflowV2Dto {
  @ApiProperty({ description: 'The trigger identifier (unique among the environment’s workflows)', example: 'order-shipped' })
  @IsString()
  @Matches(TRIGGER_IDENTIFIER_PATTERN, { message: 'workflowId may only hold letters, digits, "-", "_", ".", ":"' })
  @MaxLength(TRIGGER_IDENTIFIER_MAX_LENGTH)
  declare workflowId: string;

  @ApiPropertyOptional({
    description: 'Where it was created from (accepted; not used)',
    enum: ['editor', 'template_store', 'dashboard', 'bridge', 'api'],
    example: 'api',
  })
  @IsOptional()
  @IsString()
  source?: string;
}

export class SyncWorkflowV2Dto {
  @ApiProperty({ description: 'The environment to copy the workflow to (another of your organization)', example: '66a1f0c2e4b0a1b2c3d4e5f8' })
  @IsMongoId()
  targetEnvironmentId: string;
}

export const WORKFLOW_SORT_FIELDS = ['createdAt', 'updatedAt', 'name', 'lastTriggeredAt'] as const;

export class ListWorkflowsV2QueryDto {
  @ApiPropertyOptional({ description: 'Workflows per page', minimum: 1, maximum: 100, default: 10 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit = 10;

  @ApiPropertyOptional({ description: 'Workflows to skip', minimum: 0, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset = 0;

  @ApiPropertyOptional({ description: 'Sort direction', enum: ['ASC', 'DESC'], default: 'DESC' })
  @IsOptional()
  @IsIn(['ASC', 'DESC'])
  orderDirection?: 'ASC' | 'DESC';

  @ApiPropertyOptional({
    description: 'Sort field (`lastTriggeredAt` is not recorded: it sorts by `updatedAt`)',
    enum: WORKFLOW_SORT_FIELDS,
    default: 'createdAt',
  })
  @IsOptional()
  @IsIn(WORKFLOW_SORT_FIELDS)
  orderBy?: (typeof WORKFLOW_SORT_FIELDS)[number];

  @ApiPropertyOptional({ description: 'Case-insensitive search in the name and the workflowId', example: 'order' })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  query?: string;

  @ApiPropertyOptional({ description: 'Workflows holding any of these tags', type: [String] })
  @IsOptional()
  @Transform(toArray)
  @IsString({ each: true })
  tags?: string[];

  @ApiPropertyOptional({ description: 'Workflows with one of these statuses', enum: ['ACTIVE', 'INACTIVE', 'ERROR'], isArray: true })
  @IsOptional()
  @Transform(toArray)
  @IsIn(['ACTIVE', 'INACTIVE', 'ERROR'], { each: true })
  status?: ('ACTIVE' | 'INACTIVE' | 'ERROR')[];
}

export class GetWorkflowV2QueryDto {
  @ApiPropertyOptional({ description: 'Accepted for Novu’s clients; the API key’s environment is used', example: '66a1f0c2e4b0a1b2c3d4e5f8' })
  @IsOptional()
  @IsString()
  environmentId?: string;
}

export class PreviewPayloadV2Dto {
  @ApiPropertyOptional({ description: 'The subscriber fields to render with', example: { firstName: 'Ada', email: 'ada@example.com' } })
  @IsOptional()
  @IsObject()
  subscriber?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'The trigger payload to render with', example: { orderId: 'A-42' } })
  @IsOptional()
  @IsObject()
  payload?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'Earlier steps’ results by stepId (digest events, HTTP answers)', example: {} })
  @IsOptional()
  @IsObject()
  steps?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'The actor subscriber', example: {} })
  @IsOptional()
  @IsObject()
  actor?: Record<string, unknown>;
  @ApiPropertyOptional({
    description: 'Contexts by type, as a trigger names them: an id (rendered with its stored data) or `{id, data}`; read as `context.<type>.data`',
    type: 'object',
    additionalProperties: true,
    example: { tenant: { id: 'acme', data: { name: 'Acme Corp' } } },
  })
  @IsOptional()
  @IsObject()
  context?: Record<string, unknown>;
  @ApiPropertyOptional({
    description: "Environment variables by key (`env.KEY`), beside the environment's own; a secret's value always shows masked",
    type: 'object',
    additionalProperties: true,
    example: { SUPPORT_URL: 'https://support.example.com' },
  })
  @IsOptional()
  @IsObject()
  env?: Record<string, unknown>;
}

export class GeneratePreviewV2Dto {
  @ApiPropertyOptional({ description: 'Controls to render instead of the step’s stored ones', example: { body: 'Hi {{payload.name}}' } })
  @IsOptional()
  @IsObject()
  controlValues?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'What to render with; what is left out is filled with sample values', type: PreviewPayloadV2Dto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PreviewPayloadV2Dto)
  previewPayload?: PreviewPayloadV2Dto;
}

// ---- responses ----

export class PreviewErrorV2Dto {
  @ApiProperty({ description: 'Short error title', example: 'The step could not be rendered' })
  title: string;
  @ApiProperty({ description: 'What went wrong', example: 'Template could not be parsed: output "{{ payload.x" not closed' })
  message: string;
  @ApiProperty({ description: 'What to check', example: 'Check the template syntax and the variables it reads (payload, subscriber, steps).' })
  hint: string;
}

export class PreviewResultV2Dto {
  @ApiProperty({ description: 'The step type', enum: STEP_TYPES, example: 'in_app' })
  type: string;
  @ApiPropertyOptional({
    description:
      'What the step renders: in_app {subject, body, avatar, primaryAction, secondaryAction, data, redirect}; email {subject, body (HTML)}; ' +
      'sms and chat {body}; push {subject, body}; http_request {method, url, headers, body} (secret headers masked); delay, digest and throttle their controls',
    type: 'object',
    additionalProperties: true,
    example: { subject: 'Order shipped', body: 'Order A-42 is on its way' },
  })
  preview?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'Why the step could not be rendered (then there is no preview)', type: PreviewErrorV2Dto })
  error?: PreviewErrorV2Dto;
}

export class GeneratePreviewResponseV2Dto {
  @ApiProperty({ description: 'What the step was rendered with: the parts given and sample values for the rest', type: PreviewPayloadV2Dto })
  previewPayloadExample: PreviewPayloadV2Dto;
  @ApiPropertyOptional({
    description: 'The workflow’s payload schema the sample payload was built from',
    nullable: true,
    type: 'object',
    additionalProperties: true,
  })
  schema?: Record<string, unknown> | null;
  @ApiProperty({ description: 'The rendered step, or the error that kept it from rendering', type: PreviewResultV2Dto })
  result: PreviewResultV2Dto;
}

export class ControlsMetadataV2Dto {
  @ApiProperty({ description: 'JSON Schema of the step type’s controls', type: 'object', additionalProperties: true })
  dataSchema: Record<string, unknown>;
  @ApiProperty({ description: 'How an editor groups the controls', example: { group: 'IN_APP' } })
  uiSchema: { group: string };
  @ApiProperty({ description: 'The controls’ values', type: 'object', additionalProperties: true })
  values: Record<string, unknown>;
}

export class StepV2ResponseDto {
  @ApiProperty({ description: 'The controls: their schema and values', type: ControlsMetadataV2Dto })
  controls: ControlsMetadataV2Dto;
  @ApiProperty({ description: 'The controls’ values', type: 'object', additionalProperties: true })
  controlValues: Record<string, unknown>;
  @ApiProperty({
    description: 'JSON Schema of the variables the step’s content may use (payload, subscriber, earlier steps)',
    type: 'object',
    additionalProperties: true,
  })
  variables: Record<string, unknown>;
  @ApiProperty({ description: 'The step’s identifier in the workflow', example: 'send-email' })
  stepId: string;
  @ApiProperty({ description: 'The step’s database id', example: '66a1f0c2e4b0a1b2c3d4e5f7' })
  _id: string;
  @ApiProperty({ description: 'Step name', example: 'Send email' })
  name: string;
  @ApiProperty({ description: 'Slug: `<stepId>_st_<id>`', example: 'send-email_st_66a1f0c2e4b0a1b2c3d4e5f7' })
  slug: string;
  @ApiProperty({ description: 'Step type', enum: STEP_TYPES, example: 'email' })
  type: string;
  @ApiProperty({ description: 'Origin of the workflow', enum: WORKFLOW_ORIGINS })
  origin: string;
  @ApiProperty({ description: 'The workflow’s trigger identifier', example: 'order-shipped' })
  workflowId: string;
  @ApiProperty({ description: 'The workflow’s database id', example: '66a1f0c2e4b0a1b2c3d4e5f6' })
  workflowDatabaseId: string;
  @ApiPropertyOptional({ description: 'Problems with the step’s controls (none are reported: invalid controls are refused when written)' })
  issues?: Record<string, unknown>;
}

export class WorkflowPreferencesResponseV2Dto {
  @ApiProperty({ description: 'Preferences set through the API (null: not set)', type: WorkflowPreferencesV2Dto, nullable: true })
  user: WorkflowPreferencesV2Dto | null;
  @ApiProperty({ description: 'What applies when `user` is not set: the workflow’s own, or every channel on', type: WorkflowPreferencesV2Dto })
  default: WorkflowPreferencesV2Dto;
}

export class WorkflowV2ResponseDto {
  @ApiProperty({ description: 'Workflow name', example: 'Order shipped' })
  name: string;
  @ApiPropertyOptional({ description: 'Description' })
  description?: string;
  @ApiProperty({ description: 'Tags', type: [String] })
  tags: string[];
  @ApiProperty({ description: 'Whether triggers run it' })
  active: boolean;
  @ApiProperty({ description: 'Triggers whose payload fails payloadSchema are refused' })
  validatePayload: boolean;
  @ApiPropertyOptional({ description: 'JSON Schema of the trigger payload', nullable: true, type: 'object', additionalProperties: true })
  payloadSchema?: Record<string, unknown> | null;
  @ApiProperty({ description: 'Stored and shown; translations are not served yet' })
  isTranslationEnabled: boolean;
  @ApiProperty({ description: 'Database id', example: '66a1f0c2e4b0a1b2c3d4e5f6' })
  _id: string;
  @ApiProperty({ description: 'The trigger identifier', example: 'order-shipped' })
  workflowId: string;
  @ApiProperty({ description: 'Slug: `<name-slug>_wf_<id>`; accepted wherever a workflow id is', example: 'order-shipped_wf_66a1f0c2e4b0a1b2c3d4e5f6' })
  slug: string;
  @ApiProperty({ description: 'Last change (ISO-8601)' })
  updatedAt: string;
  @ApiProperty({ description: 'Creation (ISO-8601)' })
  createdAt: string;
  @ApiPropertyOptional({ description: 'Last publication to another environment (ISO-8601)', nullable: true })
  lastPublishedAt?: string | null;
  @ApiProperty({ description: 'The steps', type: [StepV2ResponseDto] })
  steps: StepV2ResponseDto[];
  @ApiProperty({ description: '`novu-cloud`: written through v2 (Liquid); `novu-cloud-v1`: through v1 (Handlebars)', enum: WORKFLOW_ORIGINS })
  origin: string;
  @ApiProperty({ description: 'Channel preferences', type: WorkflowPreferencesResponseV2Dto })
  preferences: WorkflowPreferencesResponseV2Dto;
  @ApiProperty({ description: 'ACTIVE or INACTIVE', enum: ['ACTIVE', 'INACTIVE', 'ERROR'] })
  status: string;
  @ApiPropertyOptional({ description: 'A payload built from payloadSchema (defaults and examples, else sample values)', nullable: true })
  payloadExample?: Record<string, unknown> | null;
  @ApiProperty({ description: 'Severity', enum: SEVERITY_LEVELS })
  severity: string;
}

export class StepListItemV2Dto {
  @ApiProperty({ description: 'Step slug' })
  slug: string;
  @ApiProperty({ description: 'Step type' })
  type: string;
}

export class WorkflowListItemV2Dto {
  @ApiProperty({ description: 'Workflow name' })
  name: string;
  @ApiProperty({ description: 'Tags', type: [String] })
  tags: string[];
  @ApiProperty({ description: 'Last change (ISO-8601)' })
  updatedAt: string;
  @ApiProperty({ description: 'Creation (ISO-8601)' })
  createdAt: string;
  @ApiPropertyOptional({ description: 'Last publication (ISO-8601)', nullable: true })
  lastPublishedAt?: string | null;
  @ApiProperty({ description: 'Database id' })
  _id: string;
  @ApiProperty({ description: 'The trigger identifier' })
  workflowId: string;
  @ApiProperty({ description: 'Slug' })
  slug: string;
  @ApiProperty({ description: 'ACTIVE or INACTIVE', enum: ['ACTIVE', 'INACTIVE', 'ERROR'] })
  status: string;
  @ApiProperty({ description: 'Origin', enum: WORKFLOW_ORIGINS })
  origin: string;
  @ApiProperty({ description: 'The step types, in order', type: [String] })
  stepTypeOverviews: string[];
  @ApiProperty({ description: 'Stored and shown; translations are not served yet' })
  isTranslationEnabled: boolean;
  @ApiProperty({ description: 'The steps', type: [StepListItemV2Dto] })
  steps: StepListItemV2Dto[];
}

export class WorkflowListV2ResponseDto {
  @ApiProperty({ description: 'This page', type: [WorkflowListItemV2Dto] })
  workflows: WorkflowListItemV2Dto[];
  @ApiProperty({ description: 'Workflows matching, all pages' })
  totalCount: number;
}
