import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';

export class ChannelCredentialsResponseDto {
  @ApiPropertyOptional({ description: 'Webhook URL used by chat integrations' })
  webhookUrl?: string;
  @ApiPropertyOptional({ description: 'Channel name (e.g. Mattermost, Slack)' })
  channel?: string;
  @ApiPropertyOptional({ description: 'Device tokens of a push integration', type: [String] })
  deviceTokens?: string[];
  @ApiPropertyOptional({ description: 'Alert UID for Grafana On-Call' })
  alertUid?: string;
  @ApiPropertyOptional({ description: 'Title for Grafana On-Call' })
  title?: string;
  @ApiPropertyOptional({ description: 'Image URL for Grafana On-Call' })
  imageUrl?: string;
  @ApiPropertyOptional({ description: 'State for Grafana On-Call' })
  state?: string;
  @ApiPropertyOptional({ description: 'Link to upstream details for Grafana On-Call' })
  externalUrl?: string;
}

export class ChannelSettingsDto {
  @ApiProperty({ description: 'The chat or push provider id', example: 'fcm' })
  providerId: string;
  @ApiPropertyOptional({ description: 'Identifier of the integration the credentials belong to' })
  integrationIdentifier?: string;
  @ApiProperty({ description: 'Credentials for that provider', type: ChannelCredentialsResponseDto })
  credentials: ChannelCredentialsResponseDto;
  @ApiProperty({ description: 'Internal id of the integration the credentials belong to' })
  _integrationId: string;
}

export class SubscriberResponseDto {
  @ApiProperty({ description: 'Internal id of the subscriber (not the subscriberId)' })
  _id: string;
  @ApiProperty({ description: "The caller's own identifier of the subscriber", example: 'user-123' })
  subscriberId: string;
  @ApiPropertyOptional({ description: 'First name (null when set to null)', nullable: true })
  firstName?: string | null;
  @ApiPropertyOptional({ description: 'Last name (null when set to null)', nullable: true })
  lastName?: string | null;
  @ApiPropertyOptional({ description: 'Email address (null when set to null)', nullable: true })
  email?: string | null;
  @ApiPropertyOptional({ description: 'Phone number (null when set to null)', nullable: true })
  phone?: string | null;
  @ApiPropertyOptional({ description: 'Avatar URL (null when set to null)', nullable: true })
  avatar?: string | null;
  @ApiPropertyOptional({ description: 'Locale, e.g. en-US (null when set to null)', nullable: true })
  locale?: string | null;
  @ApiPropertyOptional({ description: 'IANA time zone, e.g. Europe/Paris (null when set to null)', nullable: true })
  timezone?: string | null;
  @ApiPropertyOptional({ description: 'Custom data (null when set to null)', type: 'object', additionalProperties: true, nullable: true })
  data?: Record<string, unknown> | null;
  @ApiProperty({ description: 'Chat and push credentials per provider integration', type: [ChannelSettingsDto] })
  channels: ChannelSettingsDto[];
  @ApiProperty({ description: 'Keys of the topics the subscriber belongs to', type: [String] })
  topics: string[];
  @ApiPropertyOptional({ description: 'Whether the subscriber is online (left out when unknown)' })
  isOnline?: boolean;
  @ApiPropertyOptional({ description: 'When the subscriber was last online (ISO-8601)' })
  lastOnlineAt?: string;
  @ApiProperty({ description: 'Always false: deleted subscribers are gone' })
  deleted: boolean;
  @ApiProperty({ description: 'Creation time (ISO-8601)' })
  createdAt: string;
  @ApiProperty({ description: 'Last change (ISO-8601)' })
  updatedAt: string;
  @ApiProperty({ description: 'Environment of the subscriber' })
  _environmentId: string;
  @ApiProperty({ description: 'Organization of the subscriber' })
  _organizationId: string;
  @ApiProperty({ description: 'Document version, always 0 (kept for Novu clients)', example: 0 })
  __v: number;
}

/** The subscriber as other resources embed it: each embedding picks the profile fields Novu gives it there. */
class SubscriberSummaryDto {
  @ApiProperty({ description: 'Internal id of the subscriber' })
  _id: string;
  @ApiProperty({ description: "The caller's own identifier of the subscriber" })
  subscriberId: string;
  @ApiPropertyOptional({ description: 'Avatar URL' })
  avatar?: string;
  @ApiPropertyOptional({ description: 'First name' })
  firstName?: string;
  @ApiPropertyOptional({ description: 'Last name' })
  lastName?: string;
  @ApiPropertyOptional({ description: 'Email address' })
  email?: string;
  @ApiPropertyOptional({ description: 'Phone number' })
  phone?: string;
}

/** The subscriber of a topic subscription. */
export class SubscriptionSubscriberDto extends PickType(SubscriberSummaryDto, ['_id', 'subscriberId', 'avatar', 'firstName', 'lastName', 'email'] as const) {}

/** The recipient of a notification in the activity feed. */
export class ActivitySubscriberResponseDto extends PickType(SubscriberSummaryDto, [
  '_id',
  'subscriberId',
  'firstName',
  'lastName',
  'email',
  'phone',
] as const) {}
