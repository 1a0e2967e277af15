import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsDateString, IsOptional, IsString } from 'class-validator';
import { MAX_SNOOZE_DURATION_HOURS } from '@app/inbox';

export class InboxRedirectDto {
  @ApiProperty({ description: 'Where a click leads', example: 'https://example.com/orders/A-1' }) url: string;
  @ApiPropertyOptional({ description: 'How the link opens (a v2 workflow’s step)', enum: ['_self', '_blank', '_parent', '_top', '_unfencedTop'] })
  target?: string;
}

export class InboxActionDto {
  @ApiProperty({ description: 'Button text' }) label: string;
  @ApiProperty({ description: 'Whether this action was completed' }) isCompleted: boolean;
  @ApiPropertyOptional({ description: 'Where the button leads', type: InboxRedirectDto }) redirect?: InboxRedirectDto;
}

export class InboxWorkflowDto {
  @ApiProperty({ description: 'Internal workflow id' }) id: string;
  @ApiProperty({ description: 'Trigger identifier' }) identifier: string;
  @ApiProperty({ description: 'Workflow name' }) name: string;
  @ApiProperty({ description: 'Critical workflows ignore opt-outs' }) critical: boolean;
  @ApiProperty({ description: 'Workflow tags', type: [String] }) tags: string[];
  @ApiProperty({ description: 'Severity: high, medium, low or none' }) severity: string;
}

export class InboxNotificationDto {
  @ApiProperty({ description: 'Notification (message) id' }) id: string;
  @ApiProperty({ description: 'Transaction id of the trigger' }) transactionId: string;
  @ApiPropertyOptional({ description: 'Rendered subject' }) subject?: string;
  @ApiProperty({ description: 'Rendered body' }) body: string;
  @ApiProperty({ description: 'The subscriber (id, subscriberId and profile)', type: Object }) to: Record<string, unknown>;
  @ApiProperty({ description: 'Read by the subscriber' }) isRead: boolean;
  @ApiProperty({ description: 'Seen by the subscriber' }) isSeen: boolean;
  @ApiProperty({ description: 'Archived' }) isArchived: boolean;
  @ApiProperty({ description: 'Snoozed (out of the feed until snoozedUntil)' }) isSnoozed: boolean;
  @ApiPropertyOptional({ description: 'When the snooze ends (ISO-8601)' }) snoozedUntil?: string;
  @ApiPropertyOptional({ description: 'Delivery times (a woken snooze adds one)', type: [String] }) deliveredAt?: string[];
  @ApiProperty({ description: 'Created at (ISO-8601)' }) createdAt: string;
  @ApiPropertyOptional({ description: 'Last read at' }) readAt?: string;
  @ApiPropertyOptional({ description: 'First seen at' }) firstSeenAt?: string;
  @ApiPropertyOptional({ description: 'Archived at' }) archivedAt?: string;
  @ApiPropertyOptional({ description: "Avatar: a v2 step's own, else the actor's" }) avatar?: string;
  @ApiPropertyOptional({ description: 'Primary button', type: InboxActionDto }) primaryAction?: InboxActionDto;
  @ApiPropertyOptional({ description: 'Secondary button', type: InboxActionDto }) secondaryAction?: InboxActionDto;
  @ApiProperty({ description: 'Always in_app' }) channelType: string;
  @ApiProperty({ description: 'Workflow tags', type: [String] }) tags: string[];
  @ApiProperty({ description: 'Custom data: a v2 step’s `data` (string values rendered); for a v1 workflow, the trigger payload', type: Object })
  data: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'Where a click on the notification leads', type: InboxRedirectDto }) redirect?: InboxRedirectDto;
  @ApiProperty({ description: 'The workflow', type: InboxWorkflowDto }) workflow: InboxWorkflowDto;
  @ApiProperty({ description: 'Severity: high, medium, low or none' }) severity: string;
}

export class InboxFilterEchoDto {
  @ApiPropertyOptional({ type: [String], description: 'Tags (any)' }) tags?: string[];
  @ApiPropertyOptional({ description: 'Read' }) read?: boolean;
  @ApiPropertyOptional({ description: 'Archived' }) archived?: boolean;
  @ApiPropertyOptional({ description: 'Snoozed' }) snoozed?: boolean;
  @ApiPropertyOptional({ description: 'Seen' }) seen?: boolean;
  @ApiPropertyOptional({ type: Object, description: 'Data keys that must equal' }) data?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'Severity or severities', oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }) severity?:
    string | string[];
}

export class InboxNotificationsResponseDto {
  @ApiProperty({ type: [InboxNotificationDto], description: 'One page, newest first' }) data: InboxNotificationDto[];
  @ApiProperty({ description: 'Whether a next page exists (pass the last id as `after`)' }) hasMore: boolean;
  @ApiProperty({ type: InboxFilterEchoDto, description: 'The filter applied' }) filter: InboxFilterEchoDto;
}

export class InboxCountDto {
  @ApiProperty({ description: 'Notifications matching the filter' }) count: number;
  @ApiProperty({ type: InboxFilterEchoDto, description: 'The filter, echoed as sent (the client matches counts to filters by it)' }) filter: InboxFilterEchoDto;
}

// A day after the service started, on the hour: a snooze reaches at most MAX_SNOOZE_DURATION_HOURS ahead, so no fixed date stays valid.
const SNOOZE_EXAMPLE = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 24 * 3_600_000).toISOString();

export class SnoozeRequestDto {
  @ApiProperty({
    description: `When the notification comes back (ISO-8601, in the future, at most ${MAX_SNOOZE_DURATION_HOURS} hours ahead)`,
    example: SNOOZE_EXAMPLE,
  })
  @IsDateString()
  snoozeUntil: string;
}

export class BulkInboxRequestDto {
  @ApiPropertyOptional({
    description: 'Only notifications with any of these tags (also as `{and: [{or: [tags]}]}`, one group)',
    type: [String],
    example: ['billing'],
  })
  @IsOptional()
  tags?: unknown;

  @ApiPropertyOptional({
    description: 'Only notifications whose data has these values (a JSON object, or its JSON text)',
    type: String,
    example: '{"orderId":"A-1001"}',
  })
  @IsOptional()
  data?: unknown;
}

export class MarkSeenRequestDto extends BulkInboxRequestDto {
  @ApiPropertyOptional({ description: 'Only these notifications (their ids)', type: [String], example: ['6650f0c2a1b2c3d4e5f60718'] })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  notificationIds?: string[];
}

export class InboxChannelsDto {
  @ApiPropertyOptional({ description: 'Email' }) @IsOptional() @IsBoolean() email?: boolean;
  @ApiPropertyOptional({ description: 'SMS' }) @IsOptional() @IsBoolean() sms?: boolean;
  @ApiPropertyOptional({ description: 'In-app' }) @IsOptional() @IsBoolean() in_app?: boolean;
  @ApiPropertyOptional({ description: 'Chat' }) @IsOptional() @IsBoolean() chat?: boolean;
  @ApiPropertyOptional({ description: 'Push' }) @IsOptional() @IsBoolean() push?: boolean;
}

export class InboxPreferenceDto {
  @ApiProperty({ description: 'global or template (a workflow)', enum: ['global', 'template'] }) level: string;
  @ApiProperty({ description: 'Whether any channel is on' }) enabled: boolean;
  @ApiProperty({ description: 'Channel switches', type: InboxChannelsDto }) channels: InboxChannelsDto;
  @ApiPropertyOptional({ description: 'The workflow (level template)', type: InboxWorkflowDto }) workflow?: InboxWorkflowDto;
}
