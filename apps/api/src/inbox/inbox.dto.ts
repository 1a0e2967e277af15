import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { InboxChannelsDto, InboxCountDto } from '../shared-dto/inbox.dto';

export class InboxSubscriberDto {
  @ApiProperty({ description: 'Your own identifier of the subscriber', example: 'user-123' })
  @IsString()
  @MaxLength(256)
  subscriberId: string;

  @ApiPropertyOptional({ description: 'First name', example: 'Ada' }) @IsOptional() @IsString() firstName?: string;
  @ApiPropertyOptional({ description: 'Last name', example: 'Lovelace' }) @IsOptional() @IsString() lastName?: string;
  @ApiPropertyOptional({ description: 'Email address', example: 'ada@example.com' }) @IsOptional() @IsString() email?: string;
  @ApiPropertyOptional({ description: 'Phone number; SMS providers expect E.164', example: '+14155550123' }) @IsOptional() @IsString() phone?: string;
  @ApiPropertyOptional({ description: 'Avatar URL', example: 'https://example.com/avatars/ada.png' }) @IsOptional() @IsString() avatar?: string;
  @ApiPropertyOptional({ description: 'Locale (BCP 47)', example: 'en-US' }) @IsOptional() @IsString() locale?: string;
  @ApiPropertyOptional({ description: "IANA time zone (the client sends the browser's)", example: 'America/New_York' })
  @IsOptional()
  @IsString()
  timezone?: string;
  @ApiPropertyOptional({ description: 'Custom data, replaced as a whole', type: Object, example: { plan: 'enterprise' } })
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown>;
}

export class InboxSessionRequestDto {
  @ApiProperty({ description: "The environment's public identifier (GET /v1/environments/me, or the CLI's environments:list)", example: 'Xy3kPq0aBc1d' })
  @IsString()
  @MaxLength(64)
  applicationIdentifier: string;

  @ApiPropertyOptional({ description: 'The subscriber (older clients); `subscriber.subscriberId` wins when both are sent', example: 'user-123' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  subscriberId?: string;

  @ApiPropertyOptional({ description: 'The subscriber, created or updated with the fields given', type: InboxSubscriberDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => InboxSubscriberDto)
  subscriber?: InboxSubscriberDto;

  @ApiPropertyOptional({
    description: 'HMAC-SHA256 of the subscriberId keyed with an API key of the environment (hex); required when the environment turns HMAC on',
    example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  subscriberHash?: string;

  @ApiPropertyOptional({ description: 'Sent by newer clients; not used', type: Object })
  @IsOptional()
  defaultSchedule?: unknown;

  @ApiPropertyOptional({ description: 'Sent by newer clients; not used', type: Object })
  @IsOptional()
  context?: unknown;

  @ApiPropertyOptional({ description: 'Sent by newer clients; not used' })
  @IsOptional()
  contextHash?: unknown;
}

export class InboxSessionResponseDto {
  @ApiProperty({ description: 'Subscriber token: send it as `Authorization: Bearer <token>` to /v1/inbox routes and as the socket.io `token` query' })
  token: string;
  @ApiProperty({ description: 'Unread, unarchived, unsnoozed notifications of the subscriber' })
  totalUnreadCount: number;
  @ApiProperty({
    description: 'The same count as the bell starts from: total and per severity (high, medium, low, none)',
    example: { total: 1, severity: { high: 0, medium: 0, low: 0, none: 1 } },
  })
  unreadCount: { total: number; severity: Record<string, number> };
  @ApiProperty({ description: 'Whether the client hides its "Inbox by Novu" line' })
  removeNovuBranding: boolean;
  @ApiProperty({ description: 'True in the Development environment' })
  isDevelopmentMode: boolean;
  @ApiProperty({ description: 'How far ahead a snooze may reach, in hours' })
  maxSnoozeDurationHours: number;
}

export class InboxCountsResponseDto {
  @ApiProperty({ type: [InboxCountDto], description: 'One count per filter, in order' }) data: InboxCountDto[];
}

export class ActionRequestDto {
  @ApiProperty({ description: 'Which button', enum: ['primary', 'secondary'] })
  @IsIn(['primary', 'secondary'])
  actionType: 'primary' | 'secondary';
}

export class BulkPreferenceDto extends InboxChannelsDto {
  @ApiProperty({ description: 'Workflow id or trigger identifier', example: 'welcome' })
  @IsString()
  workflowId: string;
}

export class BulkPreferencesRequestDto {
  @ApiProperty({ type: [BulkPreferenceDto], description: 'One entry per workflow' })
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => BulkPreferenceDto)
  preferences: BulkPreferenceDto[];
}
