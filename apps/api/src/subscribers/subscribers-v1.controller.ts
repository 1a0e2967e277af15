import { Body, Controller, Delete, Get, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { ResolveSubscriberSession, TrackSubscriberPresence } from '@app/inbox';
import { UnprocessableError, isPermanentFailure } from '@app/kernel';
import {
  BulkCreateSubscribers,
  CreateSubscriber,
  DeleteSubscriber,
  GetSubscriber,
  ListSubscribersPage,
  SubscriberDetails,
  UpdateSubscriber,
  UpdateSubscriberCredentials,
} from '@app/subscribers';
import { ApiCommonErrors, ApiDataResponse } from '../docs/api-responses';
import { IdempotencyKeyHeader, SubscriberIdParam, SubscriberNotFound } from './route-docs';
import { CurrentScope } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';
import { UpdateSubscriberChannelRequestDto } from './credentials.dto';
import { SubscriberResponseDto } from '../shared-dto/subscriber.dto';
import { toSubscriberResponse } from '../shared-dto/subscriber.mapper';
import { PatchSubscriberRequestDto, RemoveSubscriberResponseDto } from './subscriber.dto';
import { toSubscriberChanges } from './subscriber.mapper';
import {
  BulkCreateSubscribersRequestDto,
  BulkCreateSubscribersResponseDto,
  IdentifySubscriberRequestDto,
  ListSubscribersV1QueryDto,
  ListSubscribersV1ResponseDto,
  UpdateOnlineStatusRequestDto,
} from './subscriber-v1.dto';

/**
 * Novu's v1 subscriber routes (what `@novu/node` 2.x calls), on the same use cases as /v2/subscribers:
 * identify is the v2 create without failIfExists, update the v2 patch.
 */
@ApiTags('Subscribers (v1)')
@ApiCommonErrors()
@Controller({ path: 'subscribers', version: '1' })
export class SubscribersV1Controller {
  constructor(
    private readonly listSubscribers: ListSubscribersPage,
    private readonly createSubscriber: CreateSubscriber,
    private readonly bulkCreateSubscribers: BulkCreateSubscribers,
    private readonly getSubscriber: GetSubscriber,
    private readonly updateSubscriber: UpdateSubscriber,
    private readonly deleteSubscriber: DeleteSubscriber,
    private readonly updateCredentials: UpdateSubscriberCredentials,
    private readonly resolveSession: ResolveSubscriberSession,
    private readonly trackPresence: TrackSubscriberPresence,
  ) {}

  @Get()
  @RawResponse()
  @ApiOperation({ summary: 'List subscribers page by page, oldest first (Novu v1: page, limit)' })
  @ApiOkResponse({ type: ListSubscribersV1ResponseDto, description: 'One page of subscribers' })
  async list(@CurrentScope() scope: AuthenticatedScope, @Query() query: ListSubscribersV1QueryDto): Promise<ListSubscribersV1ResponseDto> {
    const { items, hasMore } = await this.listSubscribers.execute({ scope, page: query.page, limit: query.limit });
    return { page: query.page, hasMore, pageSize: query.limit, data: items.map(toSubscriberResponse) };
  }

  @Post()
  @ApiOperation({
    summary: 'Create a subscriber, or update the existing one with the fields given (identify)',
    description:
      'Each `channels` entry then adds credentials as PATCH /v1/subscribers/{subscriberId}/credentials does: one without an ' +
      'active integration of its provider answers 400, the profile being written already (as Novu).',
  })
  @IdempotencyKeyHeader()
  @ApiDataResponse(SubscriberResponseDto, { status: 201, description: 'The subscriber as stored' })
  async identify(@CurrentScope() scope: AuthenticatedScope, @Body() body: IdentifySubscriberRequestDto): Promise<SubscriberResponseDto> {
    let details = await this.createSubscriber.execute({ scope, subscriberId: body.subscriberId, changes: toSubscriberChanges(body), failIfExists: false });
    for (const channel of body.channels ?? []) details = await this.addCredentials(scope, body.subscriberId, channel);
    return toSubscriberResponse(details);
  }

  @Post('bulk')
  @ApiOperation({
    summary: `Create or update up to 500 subscribers at once`,
    description:
      'Each entry creates its subscriber or sets the fields it gives on the existing one; several entries of one subscriberId ' +
      'count as one write (later fields win), the first reported as created when the subscriber is new. An entry the store ' +
      'refuses, or whose `channels` cannot be stored, is listed under failed; the others are still written.',
  })
  @IdempotencyKeyHeader()
  @ApiDataResponse(BulkCreateSubscribersResponseDto, { status: 201, description: 'What became of each entry' })
  async bulk(@CurrentScope() scope: AuthenticatedScope, @Body() body: BulkCreateSubscribersRequestDto): Promise<BulkCreateSubscribersResponseDto> {
    const result = await this.bulkCreateSubscribers.execute({
      scope,
      subscribers: body.subscribers.map((entry) => ({ subscriberId: entry.subscriberId, changes: toSubscriberChanges(entry) })),
    });
    const failed = [...result.failed];
    const refused = new Set(failed.map((failure) => failure.subscriberId));
    for (const entry of body.subscribers) {
      if (refused.has(entry.subscriberId)) continue;
      for (const channel of entry.channels ?? []) {
        try {
          await this.addCredentials(scope, entry.subscriberId, channel);
        } catch (error) {
          if (!isPermanentFailure(error)) throw error;
          failed.push({ subscriberId: entry.subscriberId, message: (error as Error).message });
        }
      }
    }
    const refs = (ids: string[]) => ids.map((subscriberId) => ({ subscriberId }));
    return { created: refs(result.created), updated: refs(result.updated), failed };
  }

  @Get(':subscriberId')
  @ApiOperation({ summary: 'Get a subscriber by its subscriberId' })
  @SubscriberIdParam()
  @ApiDataResponse(SubscriberResponseDto)
  @SubscriberNotFound()
  async get(@CurrentScope() scope: AuthenticatedScope, @Param('subscriberId') subscriberId: string): Promise<SubscriberResponseDto> {
    return toSubscriberResponse(await this.getSubscriber.execute({ scope, subscriberId }));
  }

  @Put(':subscriberId')
  @ApiOperation({ summary: 'Update a subscriber: fields left out stay, null clears a field, data is replaced whole' })
  @SubscriberIdParam()
  @ApiDataResponse(SubscriberResponseDto, { description: 'The subscriber after the change' })
  @SubscriberNotFound()
  async update(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Body() body: PatchSubscriberRequestDto,
  ): Promise<SubscriberResponseDto> {
    return toSubscriberResponse(await this.updateSubscriber.execute({ scope, subscriberId, changes: toSubscriberChanges(body) }));
  }

  @Delete(':subscriberId')
  @ApiOperation({ summary: 'Delete a subscriber and its topic memberships' })
  @SubscriberIdParam()
  @ApiDataResponse(RemoveSubscriberResponseDto, { description: 'Deletion acknowledged' })
  @SubscriberNotFound()
  async remove(@CurrentScope() scope: AuthenticatedScope, @Param('subscriberId') subscriberId: string): Promise<RemoveSubscriberResponseDto> {
    await this.deleteSubscriber.execute({ scope, subscriberId });
    return { acknowledged: true, status: 'deleted' };
  }

  @Patch(':subscriberId/online-status')
  @ApiOperation({
    summary: "Set a subscriber's online flag (isOnline, or online as @novu/node sends it); lastOnlineAt becomes now",
  })
  @SubscriberIdParam()
  @IdempotencyKeyHeader()
  @ApiDataResponse(SubscriberResponseDto, { description: 'The subscriber after the change' })
  @SubscriberNotFound()
  async onlineStatus(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Body() body: UpdateOnlineStatusRequestDto,
  ): Promise<SubscriberResponseDto> {
    const online = body.isOnline ?? body.online;
    if (online === undefined) throw new UnprocessableError('online_status_missing', 'isOnline must be a boolean');
    await this.trackPresence.execute(await this.resolveSession.execute(scope, subscriberId), online);
    return toSubscriberResponse(await this.getSubscriber.execute({ scope, subscriberId }));
  }

  private addCredentials(scope: AuthenticatedScope, subscriberId: string, channel: UpdateSubscriberChannelRequestDto): Promise<SubscriberDetails> {
    return this.updateCredentials.execute({
      scope,
      subscriberId,
      providerId: channel.providerId,
      integrationIdentifier: channel.integrationIdentifier,
      credentials: { ...channel.credentials },
      mode: 'append',
    });
  }
}
