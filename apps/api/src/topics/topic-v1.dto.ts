import { ApiProperty, ApiPropertyOptional, OmitType, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, Min, MaxLength } from 'class-validator';
import { MAX_TOPICS_PAGE_SIZE } from '@app/subscribers';
import { IsIdentifier } from '../http/identifier';
import { PageQueryDto } from '../http/page-query.dto';
import { CreateUpdateTopicRequestDto } from './topic.dto';

/** Subscribers one v1 call may add or remove (Novu sets none; this keeps one statement within the store's limits). */
export const MAX_V1_TOPIC_SUBSCRIBERS = 1000;

export class CreateTopicV1RequestDto extends OmitType(CreateUpdateTopicRequestDto, ['name'] as const) {
  @ApiProperty({ description: 'Name of the topic', example: 'Product updates', maxLength: 255 })
  @IsString()
  @MaxLength(255)
  name: string;
}

export class CreateTopicV1ResponseDto {
  @ApiProperty({ description: 'Internal id of the topic' })
  _id: string;
  @ApiProperty({ description: 'Key of the topic', example: 'product-updates' })
  key: string;
}

export class TopicV1Dto {
  @ApiProperty({ description: 'Internal id of the topic' })
  _id: string;
  @ApiProperty({ description: 'Organization id' })
  _organizationId: string;
  @ApiProperty({ description: 'Environment id' })
  _environmentId: string;
  @ApiProperty({ description: 'Key of the topic', example: 'product-updates' })
  key: string;
  @ApiPropertyOptional({ description: 'Name of the topic (left out when it has none: a topic made through /v2 without a name)' })
  name?: string;
  @ApiProperty({ description: 'subscriberIds of every member', type: [String], example: ['user-1', 'user-2'] })
  subscribers: string[];
}

/** `page` as every page-numbered list; `pageSize` (not `limit`) as Novu's v1 topics take it. */
export class TopicV1ListQueryDto extends PickType(PageQueryDto, ['page'] as const) {
  @ApiPropertyOptional({
    description: `Topics per page, at most ${MAX_TOPICS_PAGE_SIZE} (400 beyond, as Novu)`,
    default: 10,
    minimum: 0,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  pageSize: number = 10;

  @ApiPropertyOptional({ description: 'Exact topic key: the page holds that topic or nothing' })
  @IsOptional()
  @IsString()
  key?: string;
}

export class TopicV1ListResponseDto {
  @ApiProperty({ description: 'One page of topics, oldest first', type: [TopicV1Dto] })
  data: TopicV1Dto[];
  @ApiProperty({ description: 'The page number given' })
  page: number;
  @ApiProperty({ description: 'The page size given' })
  pageSize: number;
  @ApiProperty({ description: 'Number of matching topics' })
  totalCount: number;
}

export class RenameTopicV1RequestDto {
  @ApiProperty({ description: 'New name of the topic', example: 'Product news', maxLength: 255 })
  @IsString()
  @MaxLength(255)
  name: string;
}

export class TopicV1SubscribersRequestDto {
  @ApiProperty({
    description: `subscriberIds to add or remove, at most ${MAX_V1_TOPIC_SUBSCRIBERS}`,
    type: [String],
    example: ['user-1', 'user-2'],
  })
  @IsArray()
  @ArrayMaxSize(MAX_V1_TOPIC_SUBSCRIBERS)
  @IsIdentifier({ each: true })
  subscribers: string[];
}

export class TopicV1NotFoundSubscribersDto {
  @ApiProperty({ description: 'subscriberIds with no subscriber in the environment', type: [String] })
  notFound: string[];
}

export class TopicV1AddSubscribersResponseDto {
  @ApiProperty({ description: 'subscriberIds now members of the topic (those that were already members included)', type: [String] })
  succeeded: string[];
  @ApiPropertyOptional({ description: 'Left out when every subscriberId was found', type: TopicV1NotFoundSubscribersDto })
  failed?: TopicV1NotFoundSubscribersDto;
}

export class TopicV1SubscriberDto {
  @ApiProperty({ description: 'Internal id of the membership' })
  _id: string;
  @ApiProperty({ description: 'Organization id' })
  _organizationId: string;
  @ApiProperty({ description: 'Environment id' })
  _environmentId: string;
  @ApiProperty({ description: 'Internal id of the subscriber' })
  _subscriberId: string;
  @ApiProperty({ description: 'Internal id of the topic' })
  _topicId: string;
  @ApiProperty({ description: 'Key of the topic' })
  topicKey: string;
  @ApiProperty({ description: "The subscriber's subscriberId" })
  externalSubscriberId: string;
}
