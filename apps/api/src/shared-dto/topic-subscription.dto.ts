import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CursorPageDto } from '../http/cursor-query.dto';
import { SubscriptionSubscriberDto } from './subscriber.dto';

export class TopicResponseDto {
  @ApiProperty({ description: 'Internal id of the topic' })
  _id: string;
  @ApiProperty({ description: 'Key of the topic, unique in the environment', example: 'product-updates' })
  key: string;
  @ApiPropertyOptional({ description: 'Name of the topic', example: 'Product updates' })
  name?: string;
  @ApiProperty({ description: 'Creation time (ISO-8601)' })
  createdAt: string;
  @ApiProperty({ description: 'Last change (ISO-8601)' })
  updatedAt: string;
}

export class TopicSubscriptionResponseDto {
  @ApiProperty({ description: 'Internal id of the subscription' })
  _id: string;
  @ApiProperty({ description: 'Identifier of the subscription' })
  identifier: string;
  @ApiProperty({ description: 'Creation time (ISO-8601)' })
  createdAt: string;
  @ApiProperty({ description: 'The topic', type: TopicResponseDto })
  topic: TopicResponseDto;
  @ApiProperty({ description: 'The subscriber', type: SubscriptionSubscriberDto })
  subscriber: SubscriptionSubscriberDto | null;
}

export class ListTopicSubscriptionsResponseDto extends CursorPageDto {
  @ApiProperty({ description: 'One page of subscriptions', type: [TopicSubscriptionResponseDto] })
  data: TopicSubscriptionResponseDto[];
}
