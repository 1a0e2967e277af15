import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, ValidateNested } from 'class-validator';
import { CHANNELS, Channel } from '@app/kernel';
import { PreferenceChannelsResponseDto, PreferenceOverrideDto } from './preferences.dto';

export const PREFERENCE_LEVELS = ['global', 'template'] as const;

export class PreferencesV1QueryDto {
  @ApiPropertyOptional({
    description: 'Accepted for @novu/node; each workflow lists the channels of its active steps either way',
    enum: ['true', 'false'],
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  includeInactiveChannels?: string;
}

export class PreferenceLevelParamsDto {
  @ApiProperty({ description: 'global: the global preferences; template: one entry per active workflow', enum: PREFERENCE_LEVELS })
  @IsIn(PREFERENCE_LEVELS)
  parameter: (typeof PREFERENCE_LEVELS)[number];
}

export class ChannelPreferenceDto {
  @ApiProperty({ description: 'The channel', enum: CHANNELS, example: 'email' })
  @IsIn(CHANNELS)
  type: Channel;

  @ApiProperty({ description: 'On or off', example: false })
  @IsBoolean()
  enabled: boolean;
}

export class UpdateWorkflowPreferenceV1RequestDto {
  @ApiPropertyOptional({ description: 'One channel of the workflow to turn on or off', type: ChannelPreferenceDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ChannelPreferenceDto)
  channel?: ChannelPreferenceDto;

  @ApiPropertyOptional({ description: 'Turns the whole workflow off (false) or back on for the subscriber; its channel choices are kept' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class UpdateGlobalPreferencesV1RequestDto {
  @ApiPropertyOptional({ description: 'Turns every non-critical workflow off (false) or back on for the subscriber; channel choices are kept' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    description: "Channels to turn on or off everywhere (each also clears that channel's per-workflow choices)",
    type: [ChannelPreferenceDto],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CHANNELS.length * 2)
  @ValidateNested({ each: true })
  @Type(() => ChannelPreferenceDto)
  preferences?: ChannelPreferenceDto[];
}

export class PreferenceV1TriggerDto {
  @ApiProperty({ description: 'Always "event"', example: 'event' })
  type: string;
  @ApiProperty({ description: 'The trigger identifier of the workflow', example: 'welcome' })
  identifier: string;
}

export class PreferenceV1TemplateDto {
  @ApiProperty({ description: 'Internal id of the workflow' })
  _id: string;
  @ApiProperty({ description: 'Name of the workflow', example: 'Welcome' })
  name: string;
  @ApiProperty({ description: 'Critical workflows are always delivered; subscriber choices do not apply to them' })
  critical: boolean;
  @ApiProperty({ description: 'The workflow trigger', type: [PreferenceV1TriggerDto] })
  triggers: PreferenceV1TriggerDto[];
}

export class PreferenceV1Dto {
  @ApiProperty({ description: 'False when the subscriber turned the workflow, or everything, off' })
  enabled: boolean;
  @ApiProperty({ description: "Channels of the workflow's active steps, as they resolve for this subscriber", type: PreferenceChannelsResponseDto })
  channels: PreferenceChannelsResponseDto;
  @ApiProperty({ description: 'Which layer decided each channel', type: [PreferenceOverrideDto] })
  overrides: PreferenceOverrideDto[];
}

/** Novu's v1 preference of one workflow. */
export class WorkflowPreferenceV1Dto {
  @ApiProperty({ description: 'The workflow', type: PreferenceV1TemplateDto })
  template: PreferenceV1TemplateDto;
  @ApiProperty({ description: "The subscriber's preference for it", type: PreferenceV1Dto })
  preference: PreferenceV1Dto;
}

export class GlobalPreferenceV1Dto {
  @ApiProperty({ description: 'False when the subscriber turned everything (non-critical) off' })
  enabled: boolean;
  @ApiProperty({ description: 'Every channel, on unless the subscriber turned it off globally', type: PreferenceChannelsResponseDto })
  channels: PreferenceChannelsResponseDto;
}

/** Novu's v1 global preference (an entry of the `global` level has no template). */
export class GlobalPreferencesV1ResponseDto {
  @ApiProperty({ description: "The subscriber's global preference", type: GlobalPreferenceV1Dto })
  preference: GlobalPreferenceV1Dto;
}
