import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import {
  AddTopicSubscriptions,
  DeleteTopic,
  GetTopicMembers,
  GetTopicSubscription,
  ListTopicsPage,
  RemoveTopicSubscriptions,
  TopicNotFoundError,
  TopicSubscription,
  TopicWithMembers,
  UpdateTopic,
  UpsertTopic,
} from '@app/subscribers';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';
import {
  CreateTopicV1RequestDto,
  CreateTopicV1ResponseDto,
  RenameTopicV1RequestDto,
  TopicV1AddSubscribersResponseDto,
  TopicV1Dto,
  TopicV1ListQueryDto,
  TopicV1ListResponseDto,
  TopicV1SubscriberDto,
  TopicV1SubscribersRequestDto,
} from './topic-v1.dto';

const TopicKeyParam = () => ApiParam({ name: 'topicKey', description: 'Key of the topic', example: 'product-updates' });
const IdempotencyKeyHeader = () =>
  ApiHeader({ name: 'idempotency-key', required: false, description: 'Makes a retry of this request safe: replayed for 24 h' });
const TopicNotFound = () => ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No topic with that key' });

function toTopicV1({ topic, subscriberIds }: TopicWithMembers): TopicV1Dto {
  return {
    _id: topic.id,
    _organizationId: topic.organizationId,
    _environmentId: topic.environmentId,
    key: topic.key,
    ...(topic.name !== undefined ? { name: topic.name } : {}),
    subscribers: subscriberIds,
  };
}

function toTopicSubscriberV1(subscription: TopicSubscription): TopicV1SubscriberDto {
  return {
    _id: subscription.id,
    _organizationId: subscription.organizationId,
    _environmentId: subscription.environmentId,
    _subscriberId: subscription.subscriberInternalId,
    _topicId: subscription.topicId,
    topicKey: subscription.topicKey,
    externalSubscriberId: subscription.subscriberId,
  };
}

/** Novu's v1 topic routes (what `@novu/node` calls), on the same use cases as /v2/topics. */
@ApiTags('Topics (v1)')
@ApiCommonErrors()
@Controller({ path: 'topics', version: '1' })
export class TopicsV1Controller {
  constructor(
    private readonly upsertTopic: UpsertTopic,
    private readonly listTopicsPage: ListTopicsPage,
    private readonly getTopicMembers: GetTopicMembers,
    private readonly updateTopic: UpdateTopic,
    private readonly deleteTopic: DeleteTopic,
    private readonly addSubscriptions: AddTopicSubscriptions,
    private readonly removeSubscriptions: RemoveTopicSubscriptions,
    private readonly getTopicSubscription: GetTopicSubscription,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a topic (409 when the key is taken)' })
  @IdempotencyKeyHeader()
  @ApiDataResponse(CreateTopicV1ResponseDto, { status: 201, description: 'The created topic' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'A topic with that key exists' })
  async create(@CurrentScope() scope: AuthenticatedScope, @Body() body: CreateTopicV1RequestDto): Promise<CreateTopicV1ResponseDto> {
    const { topic } = await this.upsertTopic.execute({ scope, key: body.key, name: body.name, failIfExists: true });
    return { _id: topic.id, key: topic.key };
  }

  @Get()
  @RawResponse()
  @ApiOperation({ summary: 'List topics page by page, each with its subscribers (filter: exact key)' })
  @ApiOkResponse({ type: TopicV1ListResponseDto, description: 'One page of topics' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'pageSize larger than 10' })
  async list(@CurrentScope() scope: AuthenticatedScope, @Query() query: TopicV1ListQueryDto): Promise<TopicV1ListResponseDto> {
    const { items, totalCount } = await this.listTopicsPage.execute({ scope, page: query.page, pageSize: query.pageSize, key: query.key || undefined });
    return { data: items.map(toTopicV1), page: query.page, pageSize: query.pageSize, totalCount };
  }

  @Get(':topicKey')
  @ApiOperation({ summary: 'Get a topic with its subscribers' })
  @TopicKeyParam()
  @ApiDataResponse(TopicV1Dto)
  @TopicNotFound()
  async get(@CurrentScope() scope: AuthenticatedScope, @Param('topicKey') key: string): Promise<TopicV1Dto> {
    return toTopicV1(await this.getTopicMembers.execute({ scope, key }));
  }

  @Patch(':topicKey')
  @ApiOperation({ summary: 'Rename a topic' })
  @TopicKeyParam()
  @IdempotencyKeyHeader()
  @ApiDataResponse(TopicV1Dto, { description: 'The topic after the change' })
  @TopicNotFound()
  async rename(@CurrentScope() scope: AuthenticatedScope, @Param('topicKey') key: string, @Body() body: RenameTopicV1RequestDto): Promise<TopicV1Dto> {
    await this.updateTopic.execute({ scope, key, name: body.name });
    return toTopicV1(await this.getTopicMembers.execute({ scope, key }));
  }

  @Delete(':topicKey')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a topic that has no subscribers (409 while it has any, as Novu)' })
  @TopicKeyParam()
  @ApiNoContentResponse({ description: 'Deleted' })
  @TopicNotFound()
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The topic still has subscribers: remove them first' })
  async remove(@CurrentScope() scope: AuthenticatedScope, @Param('topicKey') key: string): Promise<void> {
    await this.deleteTopic.execute({ scope, key, onlyIfEmpty: true });
  }

  @Post(':topicKey/subscribers')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Add subscribers to a topic (the topic is created, named Autogenerated-<key>, if missing)',
    description: 'Unknown subscriberIds are listed under failed.notFound; the others are added.',
  })
  @TopicKeyParam()
  @IdempotencyKeyHeader()
  @ApiDataResponse(TopicV1AddSubscribersResponseDto, { description: 'Who was added and who was not found' })
  async addSubscribers(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('topicKey') topicKey: string,
    @Body() body: TopicV1SubscribersRequestDto,
  ): Promise<TopicV1AddSubscribersResponseDto> {
    const result = await this.addSubscriptions.execute({ scope, topicKey, subscriberIds: body.subscribers, nameIfCreated: `Autogenerated-${topicKey}` });
    const notFound = result.errors.map((error) => error.subscriberId);
    return {
      succeeded: result.subscriptions.map(({ subscription }) => subscription.subscriberId),
      ...(notFound.length ? { failed: { notFound } } : {}),
    };
  }

  @Get(':topicKey/subscribers/:externalSubscriberId')
  @ApiOperation({ summary: 'Check whether a subscriber belongs to a topic (404 when not)' })
  @TopicKeyParam()
  @ApiParam({ name: 'externalSubscriberId', description: 'The subscriberId', example: 'user-1' })
  @ApiDataResponse(TopicV1SubscriberDto, { description: 'The membership' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such topic, or the subscriber is not a member' })
  async getSubscriber(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('topicKey') topicKey: string,
    @Param('externalSubscriberId') subscriberId: string,
  ): Promise<TopicV1SubscriberDto> {
    return toTopicSubscriberV1(await this.getTopicSubscription.execute({ scope, topicKey, subscriberId }));
  }

  @Post(':topicKey/subscribers/removal')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove subscribers from a topic (ids that were not members, or an unknown topic, change nothing)' })
  @TopicKeyParam()
  @IdempotencyKeyHeader()
  @ApiNoContentResponse({ description: 'Removed' })
  async removeSubscribers(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('topicKey') topicKey: string,
    @Body() body: TopicV1SubscribersRequestDto,
  ): Promise<void> {
    try {
      await this.removeSubscriptions.execute({ scope, topicKey, subscriberIds: body.subscribers });
    } catch (error) {
      // Novu's v1 removal answers 204 for a topic that does not exist: there was nothing to remove.
      if (!(error instanceof TopicNotFoundError)) throw error;
    }
  }
}
