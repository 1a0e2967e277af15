import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsBoolean, IsOptional, ValidateNested } from 'class-validator';
import { MAX_BULK_SUBSCRIBERS } from '@app/subscribers';
import { PageQueryDto } from '../http/page-query.dto';
import { UpdateSubscriberChannelRequestDto } from './credentials.dto';
import { SubscriberResponseDto } from '../shared-dto/subscriber.dto';
import { CreateSubscriberRequestDto } from './subscriber.dto';

/** Novu's v1 create (identify) body: the profile, and optionally credentials per chat/push provider. */
export class IdentifySubscriberRequestDto extends CreateSubscriberRequestDto {
  @ApiPropertyOptional({
    description: 'Chat/push credentials to add, one entry per provider (as PATCH …/credentials: device tokens are appended)',
    type: [UpdateSubscriberChannelRequestDto],
  })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => UpdateSubscriberChannelRequestDto)
  channels?: UpdateSubscriberChannelRequestDto[];
}

export class BulkCreateSubscribersRequestDto {
  @ApiProperty({ description: `Subscribers to create or update, 1 to ${MAX_BULK_SUBSCRIBERS}`, type: [IdentifySubscriberRequestDto] })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_BULK_SUBSCRIBERS)
  @ValidateNested({ each: true })
  @Type(() => IdentifySubscriberRequestDto)
  subscribers: IdentifySubscriberRequestDto[];
}

export class BulkSubscriberRefDto {
  @ApiProperty({ description: 'The subscriberId of the entry', example: 'user-123' })
  subscriberId: string;
}

export class BulkSubscriberFailureDto {
  @ApiProperty({ description: 'The subscriberId of the entry', example: 'user-123' })
  subscriberId: string;
  @ApiProperty({ description: 'Why it was not written (or, for credentials, not all of it)' })
  message: string;
}

export class BulkCreateSubscribersResponseDto {
  @ApiProperty({ description: 'Entries that created their subscriber, in the order given', type: [BulkSubscriberRefDto] })
  created: BulkSubscriberRefDto[];
  @ApiProperty({ description: 'Entries that updated an existing subscriber (or repeated one created earlier in the list)', type: [BulkSubscriberRefDto] })
  updated: BulkSubscriberRefDto[];
  @ApiProperty({ description: 'Entries the store refused, or whose credentials could not be stored', type: [BulkSubscriberFailureDto] })
  failed: BulkSubscriberFailureDto[];
}

/** `page` from 0, `limit` 1 to 100 (default 10), as Novu's v1 list. */
export class ListSubscribersV1QueryDto extends PageQueryDto {}

export class ListSubscribersV1ResponseDto {
  @ApiProperty({ description: 'The page number given' })
  page: number;
  @ApiProperty({ description: 'Whether a later page holds any subscriber' })
  hasMore: boolean;
  @ApiProperty({ description: 'The limit given' })
  pageSize: number;
  @ApiProperty({ description: 'One page of subscribers, oldest first', type: [SubscriberResponseDto] })
  data: SubscriberResponseDto[];
}

/** Novu's DTO names the flag `isOnline`; @novu/node 2.x sends `online`: either is read. */
export class UpdateOnlineStatusRequestDto {
  @ApiPropertyOptional({ description: "Whether the subscriber is online (Novu's field)" })
  @IsOptional()
  @IsBoolean()
  isOnline?: boolean;

  @ApiPropertyOptional({ description: 'The same flag as @novu/node 2.x sends it; used when isOnline is absent' })
  @IsOptional()
  @IsBoolean()
  online?: boolean;
}
