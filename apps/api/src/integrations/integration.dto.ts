import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { BURST_WINDOW_SECONDS, MAX_CONCURRENCY, MAX_RATE_PER_SECOND } from '@app/integrations';
import { CHANNELS, CONDITION_OPERATORS, Channel, ConditionOperator, IDENTIFIER_MAX_LENGTH } from '@app/kernel';
import { IsIdentifier } from '../http/identifier';

const NAME_MAX = 256;
const CREDENTIAL_MAX = 64 * 1024;

const CONDITION_SOURCES = ['tenant', 'subscriber', 'payload'];
const FIELD_TYPES = ['BOOLEAN', 'TEXT', 'DATE', 'NUMBER', 'STATEMENT', 'LIST', 'MULTI_LIST', 'GROUP'];

/** Provider credentials (Novu's CredentialsDto). Every field is optional; `null` on update removes a field. */
export class CredentialsDto {
  @ApiPropertyOptional({ description: 'API key (secret: masked in responses)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  apiKey?: string;

  @ApiPropertyOptional({ description: 'User name (SMTP user, Mailgun user, Rocket.Chat user id)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  user?: string;

  @ApiPropertyOptional({ description: 'Secret key (secret: masked in responses)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  secretKey?: string;

  @ApiPropertyOptional({ description: 'Domain (Mailgun domain, DKIM domain, token URL for generic SMS)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  domain?: string;

  @ApiPropertyOptional({ description: 'Password (secret: masked in responses)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  password?: string;

  @ApiPropertyOptional({ description: 'SMTP host', type: String, example: 'smtp.example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  host?: string;

  @ApiPropertyOptional({ description: 'SMTP port, as a string (a number is accepted)', type: String, example: '587' })
  @Transform(({ value }) => (typeof value === 'number' ? String(value) : value))
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  port?: string;

  @ApiPropertyOptional({ description: 'Cloud region (SES, SNS)', type: String, example: 'us-east-1' })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  region?: string;

  @ApiPropertyOptional({ description: 'Account SID (Twilio, Plivo auth id; DKIM key selector for SMTP)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  accountSid?: string;

  @ApiPropertyOptional({ description: 'Messaging profile id (Telnyx)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  messageProfileId?: string;

  @ApiPropertyOptional({ description: 'Auth token (secret: masked in responses)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  token?: string;

  @ApiPropertyOptional({ description: 'Sender address or number', type: String, example: 'no-reply@example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  from?: string;

  @ApiPropertyOptional({ description: 'Sender display name', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  senderName?: string;

  @ApiPropertyOptional({ description: 'Project name (APNs team id)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  projectName?: string;

  @ApiPropertyOptional({ description: 'Application id (APNs bundle id, OneSignal app id, Pushpad project id)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  applicationId?: string;

  @ApiPropertyOptional({ description: 'OAuth client id (Slack)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  clientId?: string;

  @ApiPropertyOptional({ description: 'Base URL of the provider API', type: String, example: 'https://api.example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  baseUrl?: string;

  @ApiPropertyOptional({ description: 'Webhook URL', type: String, example: 'https://hooks.slack.com/services/T000/B000/XXXX' })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  webhookUrl?: string;

  @ApiPropertyOptional({ description: 'OAuth redirect URL (Slack)', type: String, example: 'https://example.com/slack/oauth' })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  redirectUrl?: string;

  @ApiPropertyOptional({ description: 'Service account JSON (FCM; secret: masked in responses)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  serviceAccount?: string;

  @ApiPropertyOptional({ description: 'IP pool name (SendGrid)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  ipPoolName?: string;

  @ApiPropertyOptional({ description: 'Header carrying the API key (generic SMS)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  apiKeyRequestHeader?: string;

  @ApiPropertyOptional({ description: 'Header carrying the secret key (generic SMS)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  secretKeyRequestHeader?: string;

  @ApiPropertyOptional({ description: 'Dot-path of the message id in the response (generic SMS)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  idPath?: string;

  @ApiPropertyOptional({ description: 'Dot-path of the date in the response (generic SMS)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  datePath?: string;

  @ApiPropertyOptional({ description: 'API token (secret: masked in responses)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  apiToken?: string;

  @ApiPropertyOptional({ description: 'Response key holding the auth token (generic SMS)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  authenticationTokenKey?: string;

  @ApiPropertyOptional({ description: 'Instance id (Pusher Beams)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  instanceId?: string;

  @ApiPropertyOptional({ description: 'Alert UID (Grafana On Call)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  alertUid?: string;

  @ApiPropertyOptional({ description: 'Title (Grafana On Call)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  title?: string;

  @ApiPropertyOptional({ description: 'Image URL (Grafana On Call)', type: String, example: 'https://example.com/alert.png' })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  imageUrl?: string;

  @ApiPropertyOptional({ description: 'State (Grafana On Call)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  state?: string;

  @ApiPropertyOptional({ description: 'Link to upstream details (Grafana On Call)', type: String, example: 'https://example.com/incidents/42' })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  externalLink?: string;

  @ApiPropertyOptional({ description: 'Channel id', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  channelId?: string;

  @ApiPropertyOptional({ description: 'Phone number id (WhatsApp Business)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  phoneNumberIdentification?: string;

  @ApiPropertyOptional({ description: 'Access key (MessageBird; secret: masked in responses)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  accessKey?: string;

  @ApiPropertyOptional({ description: 'App SID (Unifonic)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  appSid?: string;

  @ApiPropertyOptional({ description: 'Sender id (Unifonic)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  senderId?: string;

  @ApiPropertyOptional({ description: 'Tenant id', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  tenantId?: string;

  @ApiPropertyOptional({ description: 'API version (OneSignal)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  apiVersion?: string;

  @ApiPropertyOptional({ description: 'Base URL (AppIO)', type: String, example: 'https://api.example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  AppIOBaseUrl?: string;

  @ApiPropertyOptional({ description: 'Implicit TLS (SMTP); production endpoint (APNs)', type: Boolean })
  @IsOptional()
  @IsBoolean()
  secure?: boolean;

  @ApiPropertyOptional({ description: 'Require STARTTLS (SMTP)', type: Boolean })
  @IsOptional()
  @IsBoolean()
  requireTls?: boolean;

  @ApiPropertyOptional({ description: 'Never use STARTTLS (SMTP)', type: Boolean })
  @IsOptional()
  @IsBoolean()
  ignoreTls?: boolean;

  @ApiPropertyOptional({ description: 'Require HMAC subscriber hashes (in-app)', type: Boolean })
  @IsOptional()
  @IsBoolean()
  hmac?: boolean;

  @ApiPropertyOptional({ description: 'Fetch an auth token before sending (generic SMS)', type: Boolean })
  @IsOptional()
  @IsBoolean()
  authenticateByToken?: boolean;

  @ApiPropertyOptional({ description: 'TLS options passed to the SMTP client (only with `secure`)', type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  tlsOptions?: Record<string, unknown>;
}

/** One comparison of a condition (Novu's FieldFilterPartDto). */
export class ConditionPartDto {
  @ApiProperty({ description: 'Path of the value compared, e.g. `identifier` or `data.plan`', example: 'data.plan' })
  @IsString()
  field: string;

  @ApiProperty({ description: 'Value compared against', example: 'enterprise' })
  @IsString()
  value: string;

  @ApiProperty({ description: 'Comparison operator', enum: CONDITION_OPERATORS, example: 'EQUAL' })
  @IsIn(CONDITION_OPERATORS)
  operator: ConditionOperator;

  @ApiProperty({
    description: 'What the field is read from: the tenant, the subscriber (`data.plan`, `email`…) or the trigger payload',
    enum: CONDITION_SOURCES,
    example: 'tenant',
  })
  @IsIn(CONDITION_SOURCES)
  on: string;
}

/** Picks this integration for a delivery (Novu's StepFilterDto). */
export class ConditionDto {
  @ApiPropertyOptional({ description: 'Negates the whole condition', default: false })
  @IsOptional()
  @IsBoolean()
  isNegated?: boolean;

  @ApiPropertyOptional({ description: 'Builder field type', enum: FIELD_TYPES, default: 'BOOLEAN' })
  @IsOptional()
  @IsIn(FIELD_TYPES)
  type?: string;

  @ApiPropertyOptional({ description: 'How the children combine (left out: AND, as Novu)', enum: ['AND', 'OR'], default: 'AND' })
  @IsOptional()
  @IsIn(['AND', 'OR'])
  value: 'AND' | 'OR' = 'AND';

  @ApiProperty({ description: 'The comparisons', type: [ConditionPartDto] })
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ConditionPartDto)
  children: ConditionPartDto[];
}

export class ConfigurationsDto {
  @ApiPropertyOptional({ description: 'Whether inbound webhooks are enabled', example: false })
  @IsOptional()
  @IsBoolean()
  inboundWebhookEnabled?: boolean;

  @ApiPropertyOptional({ description: 'Key that signs inbound webhooks' })
  @IsOptional()
  @IsString()
  @MaxLength(CREDENTIAL_MAX)
  inboundWebhookSigningKey?: string;
}

/** Beyond Novu: how fast delivery may call the vendor through one integration, every worker together. */
export class RateLimitDto {
  @ApiProperty({ description: 'Vendor calls per second, sustained, shared by every worker process', minimum: 1, maximum: MAX_RATE_PER_SECOND, example: 100 })
  @IsInt()
  @Min(1)
  @Max(MAX_RATE_PER_SECOND)
  perSecond: number;

  @ApiPropertyOptional({
    description: `Calls allowed above perSecond in a burst: at most this many more within ${BURST_WINDOW_SECONDS} s (default 0)`,
    minimum: 0,
    maximum: MAX_RATE_PER_SECOND,
    example: 50,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_RATE_PER_SECOND)
  burst?: number;
}

const LIMIT_SOURCES = ['integration', 'provider-default', 'none'] as const;

/** Beyond Novu: the limits delivery keeps to for one integration, and where each comes from. */
export class EffectiveLimitsDto {
  @ApiPropertyOptional({ description: 'Vendor calls per second that apply (absent: none)', type: RateLimitDto })
  rateLimit?: RateLimitDto;

  @ApiProperty({
    description: "Where rateLimit comes from: set on the integration, the provider's published default, or none (no limit)",
    enum: LIMIT_SOURCES,
  })
  rateLimitSource: (typeof LIMIT_SOURCES)[number];

  @ApiPropertyOptional({ description: 'Vendor calls in flight at once that apply (absent: none)' })
  maxConcurrency?: number;

  @ApiProperty({
    description: "Where maxConcurrency comes from: set on the integration, the provider's published default, or none (no limit)",
    enum: LIMIT_SOURCES,
  })
  maxConcurrencySource: (typeof LIMIT_SOURCES)[number];
}

const RATE_LIMIT_DESCRIPTION =
  "Beyond Novu: vendor calls per second through this integration, every worker together; a delivery over it waits in the queue (no attempt spent). Absent: the provider's default (twilio 1/s, expo 600/s), else none.";
const MAX_CONCURRENCY_DESCRIPTION =
  'Beyond Novu: vendor calls in flight at once through this integration, every worker together; a delivery over it waits in the queue (no attempt spent). Absent: none.';

export class CreateIntegrationRequestDto {
  @ApiPropertyOptional({ description: "Display name; defaults to the provider's name", example: 'SendGrid' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name?: string;

  @ApiPropertyOptional({
    description: 'Unique in the environment (409 when taken); defaults to the slug of the name plus a short random suffix',
    example: 'sendgrid-main',
    maxLength: IDENTIFIER_MAX_LENGTH,
  })
  @IsOptional()
  @IsIdentifier()
  identifier?: string;

  // Deprecated in the document: Swagger UI leaves it out of the example, which no environment id could make valid for every reader.
  @ApiPropertyOptional({ description: "Novu's clients send it; when given it must be the API key's environment", deprecated: true })
  @IsOptional()
  @IsString()
  _environmentId?: string;

  @ApiProperty({ description: 'Provider id, e.g. `sendgrid`, `twilio`, `nodemailer`', example: 'sendgrid' })
  @IsString()
  @IsNotEmpty()
  providerId: string;

  @ApiProperty({ description: 'Channel the provider serves', enum: CHANNELS, example: 'email' })
  @IsIn(CHANNELS)
  channel: Channel;

  // The provider's own fields: a sample of every field would mix providers.
  @ApiPropertyOptional({
    description: 'Provider credentials; encrypted at rest, secrets masked in responses',
    type: CredentialsDto,
    example: { apiKey: 'SG.your-api-key', from: 'no-reply@example.com', senderName: 'Example' },
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CredentialsDto)
  credentials?: CredentialsDto;

  @ApiPropertyOptional({ description: "Active integrations deliver; `true` requires the provider's required credentials", default: false })
  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({
    description:
      'Also check the credentials live with the vendor, where it offers a side-effect-free call (README lists them); 400 with the vendor message when the check fails',
    default: false,
  })
  @IsOptional()
  @IsBoolean()
  check?: boolean;

  @ApiPropertyOptional({
    description: 'Conditions that select this integration (`on`: tenant, subscriber or payload); without any, it serves every delivery of its channel',
    type: [ConditionDto],
  })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ConditionDto)
  conditions?: ConditionDto[];

  @ApiPropertyOptional({ description: 'Additional configurations', type: ConfigurationsDto, example: { inboundWebhookEnabled: false } })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ConfigurationsDto)
  configurations?: ConfigurationsDto;

  @ApiPropertyOptional({
    description:
      'Beyond Novu: identifiers of other integrations of the same channel tried in order when this one fails for good ' +
      '(a permanent provider error, or its retries used up); each hop is an execution detail. 422 when one does not exist or serves another channel.',
    type: [String],
    maxItems: 5,
    example: ['ses-backup'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5)
  @IsString({ each: true })
  @MaxLength(IDENTIFIER_MAX_LENGTH, { each: true })
  fallbacks?: string[];

  @ApiPropertyOptional({ description: RATE_LIMIT_DESCRIPTION, type: RateLimitDto, example: { perSecond: 100, burst: 50 } })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RateLimitDto)
  rateLimit?: RateLimitDto;

  @ApiPropertyOptional({ description: MAX_CONCURRENCY_DESCRIPTION, minimum: 1, maximum: MAX_CONCURRENCY, example: 20 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_CONCURRENCY)
  maxConcurrency?: number;
}

export class UpdateIntegrationRequestDto {
  @ApiPropertyOptional({ description: 'New display name', example: 'SendGrid (marketing)' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name?: string;

  @ApiPropertyOptional({
    description: 'New identifier; must be free in the environment (409 otherwise)',
    maxLength: IDENTIFIER_MAX_LENGTH,
    example: 'sendgrid-marketing',
  })
  @IsOptional()
  @IsIdentifier()
  identifier?: string;

  @ApiPropertyOptional({ description: "Novu's clients send it; when given it must be the API key's environment", deprecated: true })
  @IsOptional()
  @IsString()
  _environmentId?: string;

  @ApiPropertyOptional({ description: "Activate or deactivate; activating requires the provider's required credentials" })
  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({
    description: 'Credentials merged into the stored ones: fields sent replace, `null` removes, a masked secret sent back keeps the stored one',
    type: CredentialsDto,
    example: { apiKey: 'SG.your-api-key', from: 'no-reply@example.com', senderName: 'Example' },
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CredentialsDto)
  credentials?: CredentialsDto;

  @ApiPropertyOptional({ description: 'Check the resulting credentials live with the provider; 400 when the check fails', default: false })
  @IsOptional()
  @IsBoolean()
  check?: boolean;

  @ApiPropertyOptional({ description: 'Replaces the conditions; giving a primary integration conditions makes it non-primary', type: [ConditionDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ConditionDto)
  conditions?: ConditionDto[];

  @ApiPropertyOptional({ description: 'Replaces the configurations', type: ConfigurationsDto, example: { inboundWebhookEnabled: false } })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ConfigurationsDto)
  configurations?: ConfigurationsDto;

  @ApiPropertyOptional({
    description:
      'Beyond Novu: identifiers of other integrations of the same channel tried in order when this one fails for good (replaces the list; [] removes them) ' +
      '(a permanent provider error, or its retries used up); each hop is an execution detail. 422 when one does not exist or serves another channel.',
    type: [String],
    maxItems: 5,
    example: ['ses-backup'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5)
  @IsString({ each: true })
  @MaxLength(IDENTIFIER_MAX_LENGTH, { each: true })
  fallbacks?: string[];

  @ApiPropertyOptional({
    description: `${RATE_LIMIT_DESCRIPTION} \`null\` goes back to the provider's default.`,
    type: RateLimitDto,
    nullable: true,
    example: { perSecond: 100, burst: 50 },
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RateLimitDto)
  rateLimit?: RateLimitDto | null;

  @ApiPropertyOptional({
    description: `${MAX_CONCURRENCY_DESCRIPTION} \`null\` removes it.`,
    minimum: 1,
    maximum: MAX_CONCURRENCY,
    nullable: true,
    example: 20,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_CONCURRENCY)
  maxConcurrency?: number | null;
}

/** Novu's IntegrationResponseDto. */
export class IntegrationResponseDto {
  @ApiProperty({ description: 'Integration id' })
  _id: string;

  @ApiProperty({ description: 'Environment the integration belongs to' })
  _environmentId: string;

  @ApiProperty({ description: 'Organization the integration belongs to' })
  _organizationId: string;

  @ApiProperty({ description: 'Display name' })
  name: string;

  @ApiProperty({ description: 'Unique identifier within the environment' })
  identifier: string;

  @ApiProperty({ description: 'Provider id, e.g. `sendgrid`' })
  providerId: string;

  @ApiProperty({ description: 'Channel the provider serves', enum: CHANNELS })
  channel: Channel;

  @ApiProperty({ description: 'Credentials, secret fields masked (first characters and `****`)', type: CredentialsDto })
  credentials: Record<string, unknown>;

  @ApiProperty({ description: 'Additional configurations', type: ConfigurationsDto })
  configurations: ConfigurationsDto;

  @ApiProperty({ description: 'Whether the integration delivers' })
  active: boolean;

  @ApiProperty({ description: 'Whether the integration was deleted (soft delete)' })
  deleted: boolean;

  @ApiPropertyOptional({ description: 'When it was deleted (ISO-8601)' })
  deletedAt?: string;

  @ApiPropertyOptional({ description: 'API key id that deleted it' })
  deletedBy?: string;

  @ApiProperty({ description: 'Whether it is the primary integration of its channel (email and sms only)' })
  primary: boolean;

  @ApiProperty({ description: 'Rank among the active integrations of its channel, highest first (email and sms; 0 otherwise)' })
  priority: number;

  @ApiProperty({
    description: 'Conditions that select this integration (`on`: tenant, subscriber or payload); without any, it serves every delivery of its channel',
    type: [ConditionDto],
  })
  conditions: ConditionDto[];

  @ApiProperty({ description: 'Identifiers of the integrations tried in order when this one fails for good (beyond Novu)', type: [String] })
  fallbacks: string[];

  @ApiPropertyOptional({
    description: "Vendor calls per second set on the integration (beyond Novu); absent: the provider's default, if any",
    type: RateLimitDto,
  })
  rateLimit?: RateLimitDto;

  @ApiPropertyOptional({ description: "Vendor calls in flight at once set on the integration (beyond Novu); absent: the provider's default, if any" })
  maxConcurrency?: number;

  @ApiProperty({
    description:
      "The limits delivery keeps to for this integration (beyond Novu): rateLimit and maxConcurrency as set on it, else the provider's default, each with its source",
    type: EffectiveLimitsDto,
    example: { rateLimit: { perSecond: 1 }, rateLimitSource: 'provider-default', maxConcurrencySource: 'none' },
  })
  effectiveLimits: EffectiveLimitsDto;

  @ApiProperty({ description: 'Creation time (ISO-8601)' })
  createdAt: string;

  @ApiProperty({ description: 'Last change (ISO-8601)' })
  updatedAt: string;
}
