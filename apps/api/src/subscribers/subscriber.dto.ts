import { IDENTIFIER_MAX_LENGTH } from '@app/kernel';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsLocale, IsObject, IsOptional, IsString, IsTimeZone } from 'class-validator';
import { CursorQueryDto } from './cursor-query.dto';
import { IsIdentifier } from '../http/identifier';

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

export class ListSubscribersResponseDto {
  @ApiProperty({ description: 'One page of subscribers', type: [SubscriberResponseDto] })
  data: SubscriberResponseDto[];
  @ApiProperty({ description: 'Cursor of the next page, null on the last page', type: String, nullable: true })
  next: string | null;
  @ApiProperty({ description: 'Cursor of the previous page, null on the first page', type: String, nullable: true })
  previous: string | null;
  @ApiProperty({ description: 'Number of subscribers matching the filters, at most 50,000' })
  totalCount: number;
  @ApiProperty({ description: 'Whether more than 50,000 subscribers match' })
  totalCountCapped: boolean;
}

export class SearchSubscribersQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ description: 'Case-insensitive substring of the email' })
  @IsOptional()
  @IsString()
  email?: string;

  @ApiPropertyOptional({ description: 'Case-insensitive substring of "firstName lastName"' })
  @IsOptional()
  @IsString()
  name?: string;

  @ApiPropertyOptional({ description: 'Case-insensitive substring of the phone number' })
  @IsOptional()
  @IsString()
  phone?: string;

  @ApiPropertyOptional({ description: 'Exact subscriberId' })
  @IsOptional()
  @IsString()
  subscriberId?: string;
}

/** Profile fields of create and patch: each optional, `null` clears it. */
export class SubscriberProfileDto {
  @ApiPropertyOptional({ description: 'First name', type: String, nullable: true, example: 'Ada' })
  @IsOptional()
  @IsString()
  firstName?: string | null;

  @ApiPropertyOptional({ description: 'Last name', type: String, nullable: true, example: 'Lovelace' })
  @IsOptional()
  @IsString()
  lastName?: string | null;

  @ApiPropertyOptional({ description: 'Email address', type: String, nullable: true, example: 'ada@example.com' })
  @IsOptional()
  @IsEmail()
  email?: string | null;

  @ApiPropertyOptional({ description: 'Phone number; SMS providers expect E.164', type: String, nullable: true, example: '+14155550123' })
  @IsOptional()
  @IsString()
  phone?: string | null;

  @ApiPropertyOptional({ description: 'Avatar URL or identifier', type: String, nullable: true, example: 'https://example.com/avatars/ada.png' })
  @IsOptional()
  @IsString()
  avatar?: string | null;

  @ApiPropertyOptional({ description: 'Locale (BCP 47)', type: String, nullable: true, example: 'en-US' })
  @IsOptional()
  @IsLocale()
  locale?: string | null;

  @ApiPropertyOptional({ description: 'IANA time zone', type: String, nullable: true, example: 'America/New_York' })
  @IsOptional()
  @IsTimeZone()
  timezone?: string | null;

  @ApiPropertyOptional({
    description: 'Custom data; replaces the stored object as a whole',
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { plan: 'enterprise' },
  })
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown> | null;
}

export class CreateSubscriberRequestDto extends SubscriberProfileDto {
  @ApiProperty({ description: 'Your own identifier of the subscriber, unique in the environment', example: 'user-123', maxLength: IDENTIFIER_MAX_LENGTH })
  @IsIdentifier()
  subscriberId: string;
}

export class PatchSubscriberRequestDto extends SubscriberProfileDto {}

export class CreateSubscriberQueryDto {
  @ApiPropertyOptional({
    description: 'When "true", answer 409 if the subscriber exists; otherwise an existing subscriber is updated with the fields given',
    type: String,
    example: 'true',
  })
  @IsOptional()
  @IsString()
  failIfExists?: string;
}

export class RemoveSubscriberResponseDto {
  @ApiProperty({ description: 'The deletion was accepted', example: true })
  acknowledged: boolean;
  @ApiProperty({ description: 'Always "deleted"', example: 'deleted' })
  status: string;
}
