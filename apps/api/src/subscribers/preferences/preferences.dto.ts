import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { SCHEDULE_TIME_PATTERN } from '@app/subscribers';

const CRITICALITIES = ['nonCritical', 'critical', 'all'] as const;
const TIME_MESSAGE = 'must be a time like "09:00 AM" (HH:MM AM|PM)';

export class PreferencesQueryDto {
  @ApiPropertyOptional({ description: 'Which workflows to list', enum: CRITICALITIES, default: 'nonCritical' })
  @IsOptional()
  @IsIn(CRITICALITIES)
  criticality: (typeof CRITICALITIES)[number] = 'nonCritical';
}

export class PreferenceChannelsBodyDto {
  @ApiPropertyOptional({ description: 'Email channel preference', example: true })
  @IsOptional()
  @IsBoolean()
  email?: boolean;

  @ApiPropertyOptional({ description: 'SMS channel preference', example: false })
  @IsOptional()
  @IsBoolean()
  sms?: boolean;

  @ApiPropertyOptional({ description: 'In-app channel preference', example: true })
  @IsOptional()
  @IsBoolean()
  in_app?: boolean;

  @ApiPropertyOptional({ description: 'Push channel preference', example: true })
  @IsOptional()
  @IsBoolean()
  push?: boolean;

  @ApiPropertyOptional({ description: 'Chat channel preference', example: false })
  @IsOptional()
  @IsBoolean()
  chat?: boolean;
}

export class TimeRangeDto {
  @ApiProperty({ description: 'Start of the window, HH:MM AM|PM', example: '09:00 AM' })
  @IsString()
  @Matches(SCHEDULE_TIME_PATTERN, { message: `start ${TIME_MESSAGE}` })
  start: string;

  @ApiProperty({ description: 'End of the window, HH:MM AM|PM; not after the start: runs past midnight', example: '05:00 PM' })
  @IsString()
  @Matches(SCHEDULE_TIME_PATTERN, { message: `end ${TIME_MESSAGE}` })
  end: string;
}

export class DayScheduleDto {
  @ApiProperty({ description: 'Whether notifications may arrive on this day', example: true })
  @IsBoolean()
  isEnabled: boolean;

  @ApiPropertyOptional({ description: 'Windows of the day; none means the whole day', type: [TimeRangeDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(24)
  @ValidateNested({ each: true })
  @Type(() => TimeRangeDto)
  hours?: TimeRangeDto[];
}

const day = (name: string) =>
  ApiPropertyOptional({
    description: `${name} schedule (a day left out has no window)`,
    type: DayScheduleDto,
    example: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] },
  });

export class WeeklyScheduleDto {
  @day('Monday') @IsOptional() @ValidateNested() @Type(() => DayScheduleDto) monday?: DayScheduleDto;
  @day('Tuesday') @IsOptional() @ValidateNested() @Type(() => DayScheduleDto) tuesday?: DayScheduleDto;
  @day('Wednesday') @IsOptional() @ValidateNested() @Type(() => DayScheduleDto) wednesday?: DayScheduleDto;
  @day('Thursday') @IsOptional() @ValidateNested() @Type(() => DayScheduleDto) thursday?: DayScheduleDto;
  @day('Friday') @IsOptional() @ValidateNested() @Type(() => DayScheduleDto) friday?: DayScheduleDto;
  @day('Saturday') @IsOptional() @ValidateNested() @Type(() => DayScheduleDto) saturday?: DayScheduleDto;
  @day('Sunday') @IsOptional() @ValidateNested() @Type(() => DayScheduleDto) sunday?: DayScheduleDto;
}

export class ScheduleDto {
  @ApiProperty({ description: 'Whether the schedule applies; off means no quiet hours', example: true })
  @IsBoolean()
  isEnabled: boolean;

  @ApiPropertyOptional({ description: "Windows per weekday, in the subscriber's timezone", type: WeeklyScheduleDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => WeeklyScheduleDto)
  weeklySchedule?: WeeklyScheduleDto;
}

export class PatchSubscriberPreferencesRequestDto {
  @ApiPropertyOptional({ description: 'Channels to turn on or off; channels left out keep their value', type: PreferenceChannelsBodyDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PreferenceChannelsBodyDto)
  channels?: PreferenceChannelsBodyDto;

  @ApiPropertyOptional({
    description: "Workflow `_id`, trigger identifier or slug: change that workflow's preferences. Left out: the global ones",
    example: 'welcome',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  workflowId?: string;

  @ApiPropertyOptional({ description: 'Quiet hours (global preferences only); replaces the stored schedule', type: ScheduleDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ScheduleDto)
  schedule?: ScheduleDto;

  @ApiPropertyOptional({ description: "Novu's context filter; accepted and ignored", type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  context?: Record<string, unknown>;
}

export class BulkPreferenceItemDto {
  @ApiProperty({ description: 'Workflow `_id`, trigger identifier or slug', example: 'welcome' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  workflowId: string;

  @ApiProperty({ description: 'Channels to turn on or off for that workflow; channels left out keep their value', type: PreferenceChannelsBodyDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PreferenceChannelsBodyDto)
  channels: PreferenceChannelsBodyDto = {};
}

export class BulkUpdatePreferencesRequestDto {
  @ApiProperty({ description: 'One entry per workflow, at most 100', type: [BulkPreferenceItemDto], maxItems: 100 })
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => BulkPreferenceItemDto)
  preferences: BulkPreferenceItemDto[];

  @ApiPropertyOptional({ description: "Novu's context filter; accepted and ignored", type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  context?: Record<string, unknown>;
}

// ---- responses ----

export class PreferenceChannelsResponseDto extends PreferenceChannelsBodyDto {}

export class GlobalPreferencesResponseDto {
  @ApiProperty({ description: 'Whether notifications are enabled globally', example: true })
  enabled: boolean;
  @ApiProperty({ description: 'Channels some active workflow delivers through (and any the subscriber set)', type: PreferenceChannelsResponseDto })
  channels: PreferenceChannelsResponseDto;
  @ApiPropertyOptional({ description: 'Quiet hours, when set', type: ScheduleDto })
  schedule?: ScheduleDto;
}

export class PreferenceOverrideDto {
  @ApiProperty({ description: 'Channel', enum: ['in_app', 'email', 'sms', 'chat', 'push'] })
  channel: string;
  @ApiProperty({ description: 'Who decided the channel: the workflow ("template") or the subscriber', enum: ['subscriber', 'template'] })
  source: string;
}

export class PreferenceWorkflowInfoDto {
  @ApiProperty({ description: 'Workflow slug (`<name>_wf_<id>`, accepted as workflowId)' })
  slug: string;
  @ApiProperty({ description: 'Trigger identifier', example: 'welcome' })
  identifier: string;
  @ApiProperty({ description: 'Workflow name', example: 'Welcome' })
  name: string;
  @ApiPropertyOptional({ description: 'When the workflow last changed (ISO-8601)' })
  updatedAt?: string;
}

export class WorkflowPreferencesResponseDto {
  @ApiProperty({ description: 'Whether notifications of this workflow are enabled', example: true })
  enabled: boolean;
  @ApiProperty({ description: "Channels of the workflow's active steps, as they resolve for this subscriber", type: PreferenceChannelsResponseDto })
  channels: PreferenceChannelsResponseDto;
  @ApiProperty({ description: 'Which layer decided each channel', type: [PreferenceOverrideDto] })
  overrides: PreferenceOverrideDto[];
  @ApiProperty({ description: 'The workflow', type: PreferenceWorkflowInfoDto })
  workflow: PreferenceWorkflowInfoDto;
  @ApiPropertyOptional({ description: 'When the subscriber last set a preference for this workflow (absent if never)' })
  updatedAt?: string;
}

export class SubscriberPreferencesResponseDto {
  @ApiProperty({ description: 'Global preferences', type: GlobalPreferencesResponseDto })
  global: GlobalPreferencesResponseDto;
  @ApiProperty({ description: 'Per-workflow preferences of the active workflows', type: [WorkflowPreferencesResponseDto] })
  workflows: WorkflowPreferencesResponseDto[];
}
