import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiHeader, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { CreateSubscriber, DeleteSubscriber, GetSubscriber, ListSubscriberSubscriptions, SearchSubscribers, UpdateSubscriber } from '@app/subscribers';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';
import { cursorRequest, toCursorPageResponse } from '../http/cursor-query.dto';
import {
  CreateSubscriberQueryDto,
  CreateSubscriberRequestDto,
  ListSubscriberSubscriptionsQueryDto,
  ListSubscribersResponseDto,
  PatchSubscriberRequestDto,
  RemoveSubscriberResponseDto,
  SearchSubscribersQueryDto,
} from './subscriber.dto';
import { SubscriberResponseDto } from '../shared-dto/subscriber.dto';
import { toSubscriberResponse } from '../shared-dto/subscriber.mapper';
import { ListTopicSubscriptionsResponseDto } from '../shared-dto/topic-subscription.dto';
import { toTopicSubscriptionResponse } from '../shared-dto/topic-subscription.mapper';
import { toSubscriberChanges } from './subscriber.mapper';

const SubscriberIdParam = () => ApiParam({ name: 'subscriberId', description: "The caller's own identifier of the subscriber", example: 'user-123' });
const IdempotencyKeyHeader = () =>
  ApiHeader({ name: 'idempotency-key', required: false, description: 'Makes a retry of this request safe: replayed for 24 h' });
const nonEmpty = (value?: string) => (value ? value : undefined);

@ApiTags('Subscribers')
@ApiCommonErrors()
@Controller({ path: 'subscribers', version: '2' })
export class SubscribersController {
  constructor(
    private readonly searchSubscribers: SearchSubscribers,
    private readonly createSubscriber: CreateSubscriber,
    private readonly getSubscriber: GetSubscriber,
    private readonly updateSubscriber: UpdateSubscriber,
    private readonly deleteSubscriber: DeleteSubscriber,
    private readonly listSubscriptions: ListSubscriberSubscriptions,
  ) {}

  @Get()
  @RawResponse()
  @ApiOperation({ summary: 'Search subscribers, cursor-paginated (filters: email, phone, name substrings; exact subscriberId)' })
  @ApiOkResponse({ type: ListSubscribersResponseDto, description: 'One page of subscribers' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Both `after` and `before` given' })
  async search(@CurrentScope() scope: AuthenticatedScope, @Query() query: SearchSubscribersQueryDto): Promise<ListSubscribersResponseDto> {
    const page = await this.searchSubscribers.execute({
      scope,
      ...cursorRequest(query),
      filter: {
        email: nonEmpty(query.email),
        phone: nonEmpty(query.phone),
        name: nonEmpty(query.name),
        subscriberId: nonEmpty(query.subscriberId),
      },
    });
    return toCursorPageResponse(page, toSubscriberResponse);
  }

  @Post()
  @ApiOperation({
    summary: 'Create a subscriber; an existing one is updated with the fields given, unless failIfExists=true (then 409)',
  })
  @IdempotencyKeyHeader()
  @ApiDataResponse(SubscriberResponseDto, { status: 201, description: 'The created (or updated) subscriber' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'failIfExists=true and the subscriber exists' })
  async create(
    @CurrentScope() scope: AuthenticatedScope,
    @Query() query: CreateSubscriberQueryDto,
    @Body() body: CreateSubscriberRequestDto,
  ): Promise<SubscriberResponseDto> {
    const details = await this.createSubscriber.execute({
      scope,
      subscriberId: body.subscriberId,
      changes: toSubscriberChanges(body),
      failIfExists: query.failIfExists === 'true',
    });
    return toSubscriberResponse(details);
  }

  @Get(':subscriberId')
  @ApiOperation({ summary: 'Get a subscriber by its subscriberId' })
  @SubscriberIdParam()
  @ApiDataResponse(SubscriberResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No subscriber with that subscriberId' })
  async get(@CurrentScope() scope: AuthenticatedScope, @Param('subscriberId') subscriberId: string): Promise<SubscriberResponseDto> {
    return toSubscriberResponse(await this.getSubscriber.execute({ scope, subscriberId }));
  }

  @Patch(':subscriberId')
  @ApiOperation({ summary: 'Update a subscriber: fields left out stay, null clears a field, data is replaced whole' })
  @SubscriberIdParam()
  @IdempotencyKeyHeader()
  @ApiDataResponse(SubscriberResponseDto, { description: 'The subscriber after the change' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No subscriber with that subscriberId' })
  async patch(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Body() body: PatchSubscriberRequestDto,
  ): Promise<SubscriberResponseDto> {
    return toSubscriberResponse(await this.updateSubscriber.execute({ scope, subscriberId, changes: toSubscriberChanges(body) }));
  }

  @Get(':subscriberId/subscriptions')
  @RawResponse()
  @ApiOperation({ summary: "The subscriber's topic subscriptions, cursor-paginated (filter: exact topic key)" })
  @SubscriberIdParam()
  @ApiOkResponse({ type: ListTopicSubscriptionsResponseDto, description: 'One page of subscriptions' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No subscriber with that subscriberId ("Subscriber not found")' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Both `after` and `before` given' })
  async subscriptions(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Query() query: ListSubscriberSubscriptionsQueryDto,
  ): Promise<ListTopicSubscriptionsResponseDto> {
    const page = await this.listSubscriptions.execute({
      scope,
      subscriberId,
      ...cursorRequest(query),
      ...(query.key ? { topicKey: query.key } : {}),
    });
    return toCursorPageResponse(page, toTopicSubscriptionResponse);
  }

  @Delete(':subscriberId')
  @ApiOperation({ summary: 'Delete a subscriber and its topic memberships' })
  @SubscriberIdParam()
  @ApiDataResponse(RemoveSubscriberResponseDto, { description: 'Deletion acknowledged' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No subscriber with that subscriberId' })
  async remove(@CurrentScope() scope: AuthenticatedScope, @Param('subscriberId') subscriberId: string): Promise<RemoveSubscriberResponseDto> {
    await this.deleteSubscriber.execute({ scope, subscriberId });
    return { acknowledged: true, status: 'deleted' };
  }
}
