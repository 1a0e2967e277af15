import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AuthenticatedScope } from '@app/environments';
import {
  AddTopicSubscriptions,
  DeleteTopic,
  GetTopic,
  GetTopicSubscription,
  ListTopicSubscriptions,
  ListTopics,
  RemoveTopicSubscriptions,
  UpdateTopic,
  UpdateTopicSubscription,
  UpsertTopic,
} from '@app/subscribers';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';
import { cursorRequest, toCursorPageResponse } from '../http/cursor-query.dto';
import { ListTopicSubscriptionsResponseDto, TopicResponseDto } from '../shared-dto/topic-subscription.dto';
import { toTopicResponse, toTopicSubscriptionResponse } from '../shared-dto/topic-subscription.mapper';
import {
  CreateUpdateTopicRequestDto,
  DeleteTopicResponseDto,
  ListTopicSubscriptionsQueryDto,
  ListTopicsQueryDto,
  ListTopicsResponseDto,
  SubscriptionDetailsResponseDto,
  SubscriptionsResultDto,
  TopicSubscriptionsRequestDto,
  UpdateTopicRequestDto,
  UpdateTopicSubscriptionRequestDto,
  SubscriptionResponseDto,
  UpsertTopicQueryDto,
} from './topic.dto';
import { toSubscriptionDetailsResponse, toSubscriptionPreferenceRequests, toSubscriptionsResult, toUpdatedSubscriptionResponse } from './topic.mapper';

const TopicKeyParam = () => ApiParam({ name: 'topicKey', description: 'Key of the topic', example: 'product-updates' });
const IdempotencyKeyHeader = () =>
  ApiHeader({ name: 'idempotency-key', required: false, description: 'Makes a retry of this request safe: replayed for 24 h' });
const TopicNotFound = () => ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No topic with that key' });
const SubscriptionIdentifierParam = () => ApiParam({ name: 'identifier', description: 'Identifier of the subscription', example: 'tk_news:si_user-1' });
const SubscriptionNotFound = () => ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No topic with that key, or no such subscription of it' });
const BothCursors = () => ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Both `after` and `before` given' });
const nonEmpty = (value?: string) => (value ? value : undefined);

@ApiTags('Topics')
@ApiCommonErrors()
@Controller({ path: 'topics', version: '2' })
export class TopicsController {
  constructor(
    private readonly upsertTopic: UpsertTopic,
    private readonly getTopic: GetTopic,
    private readonly listTopics: ListTopics,
    private readonly updateTopic: UpdateTopic,
    private readonly deleteTopic: DeleteTopic,
    private readonly addSubscriptions: AddTopicSubscriptions,
    private readonly removeSubscriptions: RemoveTopicSubscriptions,
    private readonly listSubscriptions: ListTopicSubscriptions,
    private readonly updateSubscription: UpdateTopicSubscription,
    private readonly getSubscription: GetTopicSubscription,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a topic, or update the name of the topic with that key (201 created, 200 updated)' })
  @IdempotencyKeyHeader()
  @ApiDataResponse(TopicResponseDto, { status: 201, description: 'The topic was created' })
  @ApiDataResponse(TopicResponseDto, { status: 200, description: 'The topic existed and was updated' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'failIfExists=true and the topic exists' })
  async upsert(
    @CurrentScope() scope: AuthenticatedScope,
    @Query() query: UpsertTopicQueryDto,
    @Body() body: CreateUpdateTopicRequestDto,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<TopicResponseDto> {
    const { topic, created } = await this.upsertTopic.execute({ scope, key: body.key, name: body.name, failIfExists: query.failIfExists === 'true' });
    void response.status(created ? 201 : 200);
    return toTopicResponse(topic);
  }

  @Get()
  @RawResponse()
  @ApiOperation({ summary: 'List topics, cursor-paginated (filters: key and name substrings)' })
  @ApiOkResponse({ type: ListTopicsResponseDto, description: 'One page of topics' })
  @BothCursors()
  async list(@CurrentScope() scope: AuthenticatedScope, @Query() query: ListTopicsQueryDto): Promise<ListTopicsResponseDto> {
    const page = await this.listTopics.execute({ scope, ...cursorRequest(query), filter: { key: nonEmpty(query.key), name: nonEmpty(query.name) } });
    return toCursorPageResponse(page, toTopicResponse);
  }

  @Get(':topicKey')
  @ApiOperation({ summary: 'Get a topic by its key' })
  @TopicKeyParam()
  @ApiDataResponse(TopicResponseDto)
  @TopicNotFound()
  async get(@CurrentScope() scope: AuthenticatedScope, @Param('topicKey') key: string): Promise<TopicResponseDto> {
    return toTopicResponse(await this.getTopic.execute({ scope, key }));
  }

  @Patch(':topicKey')
  @ApiOperation({ summary: 'Rename a topic' })
  @TopicKeyParam()
  @IdempotencyKeyHeader()
  @ApiDataResponse(TopicResponseDto, { description: 'The topic after the change' })
  @TopicNotFound()
  async update(@CurrentScope() scope: AuthenticatedScope, @Param('topicKey') key: string, @Body() body: UpdateTopicRequestDto): Promise<TopicResponseDto> {
    return toTopicResponse(await this.updateTopic.execute({ scope, key, name: body.name }));
  }

  @Delete(':topicKey')
  @ApiOperation({ summary: 'Delete a topic and all its subscriptions' })
  @TopicKeyParam()
  @ApiDataResponse(DeleteTopicResponseDto, { description: 'Deletion acknowledged' })
  @TopicNotFound()
  async remove(@CurrentScope() scope: AuthenticatedScope, @Param('topicKey') key: string): Promise<DeleteTopicResponseDto> {
    await this.deleteTopic.execute({ scope, key });
    return { acknowledged: true };
  }

  @Post(':topicKey/subscriptions')
  @RawResponse()
  @ApiOperation({ summary: 'Subscribe subscribers to a topic (the topic is created if missing); unknown subscriberIds are listed in errors' })
  @TopicKeyParam()
  @IdempotencyKeyHeader()
  @ApiResponse({ status: 201, type: SubscriptionsResultDto, description: 'The subscriptions, with per-subscriber errors' })
  async subscribe(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('topicKey') topicKey: string,
    @Body() body: TopicSubscriptionsRequestDto,
  ): Promise<SubscriptionsResultDto> {
    return toSubscriptionsResult(await this.addSubscriptions.execute({ scope, topicKey, subscriberIds: body.subscriberIds }));
  }

  @Delete(':topicKey/subscriptions')
  @RawResponse()
  @ApiOperation({ summary: 'Unsubscribe subscribers from a topic; subscriberIds that were not members are listed in errors' })
  @TopicKeyParam()
  @ApiBody({ type: TopicSubscriptionsRequestDto })
  @ApiOkResponse({ type: SubscriptionsResultDto, description: 'The removed subscriptions, with per-subscriber errors' })
  @TopicNotFound()
  async unsubscribe(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('topicKey') topicKey: string,
    @Body() body: TopicSubscriptionsRequestDto,
  ): Promise<SubscriptionsResultDto> {
    return toSubscriptionsResult(await this.removeSubscriptions.execute({ scope, topicKey, subscriberIds: body.subscriberIds }));
  }

  @Get(':topicKey/subscriptions')
  @RawResponse()
  @ApiOperation({ summary: 'List the subscriptions of a topic, cursor-paginated' })
  @TopicKeyParam()
  @ApiOkResponse({ type: ListTopicSubscriptionsResponseDto, description: 'One page of subscriptions' })
  @TopicNotFound()
  @BothCursors()
  async subscriptions(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('topicKey') topicKey: string,
    @Query() query: ListTopicSubscriptionsQueryDto,
  ): Promise<ListTopicSubscriptionsResponseDto> {
    const page = await this.listSubscriptions.execute({ scope, topicKey, ...cursorRequest(query), subscriberId: nonEmpty(query.subscriberId) });
    return toCursorPageResponse(page, toTopicSubscriptionResponse);
  }

  @Get(':topicKey/subscriptions/:identifier')
  @ApiOperation({
    summary: 'Get one subscription of a topic: its name and its own per-workflow preferences',
    description:
      'The identifier is the one the subscription was listed with (`tk_<topicKey>:si_<subscriberId>`). A subscription that does not exist is ' +
      'a 404 (Novu answers 204 with no body).',
  })
  @TopicKeyParam()
  @SubscriptionIdentifierParam()
  @ApiDataResponse(SubscriptionDetailsResponseDto, { description: 'The subscription' })
  @SubscriptionNotFound()
  async getSubscriptionOf(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('topicKey') topicKey: string,
    @Param('identifier') identifier: string,
  ): Promise<SubscriptionDetailsResponseDto> {
    const { subscription, workflows } = await this.getSubscription.byIdentifier({ scope, topicKey, identifier });
    return toSubscriptionDetailsResponse(subscription, workflows);
  }

  @Patch(':topicKey/subscriptions/:identifier')
  @ApiOperation({
    summary: "Change a subscription's name and its own per-workflow preferences",
    description:
      'The identifier is the one the subscription was listed with (`tk_<topicKey>:si_<subscriberId>`). `preferences` replaces the stored ones ' +
      '([] removes them); a field left out stays. A trigger of a workflow sent to the topic skips the subscriber when its preference for that ' +
      'workflow is off, or its condition is not true for the payload.',
  })
  @TopicKeyParam()
  @SubscriptionIdentifierParam()
  @IdempotencyKeyHeader()
  @ApiDataResponse(SubscriptionResponseDto, { description: 'The subscription after the change' })
  @SubscriptionNotFound()
  async updateSubscriptionOf(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('topicKey') topicKey: string,
    @Param('identifier') identifier: string,
    @Body() body: UpdateTopicSubscriptionRequestDto,
  ): Promise<SubscriptionResponseDto> {
    const updated = await this.updateSubscription.execute({
      scope,
      topicKey,
      identifier,
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.preferences ? { preferences: toSubscriptionPreferenceRequests(body.preferences) } : {}),
    });
    return toUpdatedSubscriptionResponse(updated);
  }
}
