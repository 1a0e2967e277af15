import { IDENTIFIER_MAX_LENGTH } from '@app/kernel';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsLocale, IsObject, IsOptional, IsString, IsTimeZone } from 'class-validator';
import { CursorQueryDto } from '../http/cursor-query.dto';
import { SubscriberResponseDto } from '../shared-dto/subscriber.dto';
import { IsIdentifier } from '../http/identifier';

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

export class ListSubscriberSubscriptionsQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ description: 'Only the subscription to the topic of this key' })
  @IsOptional()
  @IsString()
  key?: string;
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
