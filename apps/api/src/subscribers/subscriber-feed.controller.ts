import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Message } from '@app/delivery';
import { AuthenticatedScope } from '@app/environments';
import {
  ChangeInboxNotifications,
  ChangeInboxNotification,
  CountInboxNotifications,
  ListSubscriberFeed,
  MarkAs,
  MarkMessagesAs,
  ResolveSubscriberSession,
} from '@app/inbox';
import { InvalidRequestError } from '@app/kernel';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';
import { dataObject } from '../shared-dto/inbox-query';
import { MarkMessagesAsRequestDto, MessageResponseDto } from '../shared-dto/message.dto';
import { idsOf, toMessageResponse } from '../shared-dto/message.mapper';
import { NotSupportedError } from '../http/not-supported';
import { IdempotencyKeyHeader, SubscriberIdParam, SubscriberNotFound } from './route-docs';
import {
  MarkAllMessagesRequestDto,
  MarkMessageLegacyRequestDto,
  MessageActionParamsDto,
  MessageActionRequestDto,
  SubscriberFeedQueryDto,
  SubscriberFeedResponseDto,
  UnseenCountQueryDto,
  UnseenCountResponseDto,
} from './subscriber-feed.dto';

const UnknownSubscriberIs400 = () => ApiBadRequestResponse({ type: ErrorResponseDto, description: 'No subscriber with that subscriberId (400, as Novu)' });

/** Novu's v0 feeds are not served: a feed identifier would silently widen what a call reads or marks. */
function refuseFeeds(feedIdentifier: unknown): void {
  if (feedIdentifier !== undefined && feedIdentifier !== '' && !(Array.isArray(feedIdentifier) && feedIdentifier.length === 0)) {
    throw new NotSupportedError('feeds');
  }
}

const flag = (value: 'true' | 'false' | undefined): boolean | undefined => (value === undefined ? undefined : value === 'true');

function payloadFilter(payload: string | undefined): Record<string, unknown> | undefined {
  if (!payload) return undefined;
  try {
    // The Inbox's data filter, once the base64 is decoded; Novu's own wording when it is not an object.
    return dataObject(Buffer.from(payload, 'base64').toString(), 'payload');
  } catch {
    throw new InvalidRequestError('invalid_payload', 'Invalid payload, the JSON object should be encoded to base64 string.');
  }
}

/**
 * Novu's server-side feed routes of one subscriber (what `@novu/node` 2.x calls), on the Inbox's own
 * use cases: the subscriber is named by the API key's caller instead of a subscriber token, and the
 * answers are Novu's stored-message shape.
 */
@ApiTags('Subscribers (v1)')
@ApiCommonErrors()
@Controller({ path: 'subscribers/:subscriberId', version: '1' })
export class SubscriberFeedController {
  constructor(
    private readonly resolveSession: ResolveSubscriberSession,
    private readonly listFeed: ListSubscriberFeed,
    private readonly countNotifications: CountInboxNotifications,
    private readonly markMessagesAs: MarkMessagesAs,
    private readonly changeNotifications: ChangeInboxNotifications,
    private readonly changeNotification: ChangeInboxNotification,
  ) {}

  @Get('notifications/feed')
  @RawResponse()
  @ApiOperation({ summary: "The subscriber's in-app messages, newest first, page by page (filters: read, seen, payload)" })
  @SubscriberIdParam()
  @ApiOkResponse({ type: SubscriberFeedResponseDto, description: 'One page of the feed' })
  @UnknownSubscriberIs400()
  async feed(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Query() query: SubscriberFeedQueryDto,
  ): Promise<SubscriberFeedResponseDto> {
    refuseFeeds(query.feedIdentifier);
    const data = payloadFilter(query.payload);
    const session = await this.resolveSession.execute(scope, subscriberId, 'invalid');
    const { messages, hasMore } = await this.listFeed.execute(
      session,
      { read: flag(query.read), seen: flag(query.seen), ...(data ? { data } : {}) },
      { page: query.page, limit: query.limit },
    );
    return {
      data: messages.map((message) => toMessageResponse(message, session.subscriber)),
      totalCount: messages.length,
      hasMore,
      pageSize: query.limit,
      page: query.page,
    };
  }

  @Get('notifications/unseen')
  @ApiOperation({ summary: "How many of the subscriber's in-app messages are unseen (or, with seen=true, seen), up to limit" })
  @SubscriberIdParam()
  @ApiDataResponse(UnseenCountResponseDto)
  @UnknownSubscriberIs400()
  async unseen(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Query() query: UnseenCountQueryDto,
  ): Promise<UnseenCountResponseDto> {
    refuseFeeds(query.feedIdentifier);
    const session = await this.resolveSession.execute(scope, subscriberId, 'invalid');
    const [count] = await this.countNotifications.execute(session, [{ seen: flag(query.seen) ?? false }]);
    return { count: Math.min(count, query.limit) };
  }

  @Post('messages/mark-as')
  @ApiOperation({ summary: "Mark some of the subscriber's in-app messages read, unread, seen or unseen" })
  @SubscriberIdParam()
  @IdempotencyKeyHeader()
  @ApiDataResponse(MessageResponseDto, { status: 201, isArray: true, description: 'The messages found, after the change' })
  @SubscriberNotFound()
  async markAs(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Body() body: MarkMessagesAsRequestDto,
  ): Promise<MessageResponseDto[]> {
    const messages = await this.markMessagesAs.execute(scope, subscriberId, idsOf(body.messageId), body.markAs);
    return messages.map((message) => toMessageResponse(message));
  }

  @Post('messages/markAs')
  @ApiOperation({
    summary: "Mark some of the subscriber's in-app messages by flags ({seen, read}), Novu's older route",
    description: 'What @novu/node calls for markMessageSeen, markMessageRead and markMessageAs.',
  })
  @SubscriberIdParam()
  @IdempotencyKeyHeader()
  @ApiDataResponse(MessageResponseDto, { status: 201, isArray: true, description: 'The messages found, after the change' })
  @SubscriberNotFound()
  async markAsLegacy(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Body() body: MarkMessageLegacyRequestDto,
  ): Promise<MessageResponseDto[]> {
    const ids = idsOf(body.messageId);
    const marks: MarkAs[] = [];
    if (body.mark.read !== undefined) marks.push(body.mark.read ? 'read' : 'unread');
    if (body.mark.seen !== undefined) marks.push(body.mark.seen ? 'seen' : 'unseen');
    if (!marks.length) throw new InvalidRequestError('invalid_mark', 'mark must set seen or read');
    let messages: Message[] = [];
    for (const markAs of marks) messages = await this.markMessagesAs.execute(scope, subscriberId, ids, markAs);
    return messages.map((message) => toMessageResponse(message));
  }

  @Post('messages/mark-all')
  @ApiOperation({ summary: "Mark every one of the subscriber's in-app messages read, unread, seen or unseen" })
  @SubscriberIdParam()
  @IdempotencyKeyHeader()
  @ApiCreatedResponse({
    description: '`{data: n}`: how many messages changed',
    schema: { type: 'object', properties: { data: { type: 'integer', example: 5 } } },
  })
  @SubscriberNotFound()
  async markAll(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Body() body: MarkAllMessagesRequestDto,
  ): Promise<number> {
    refuseFeeds(body.feedIdentifier);
    return this.changeNotifications.execute(await this.resolveSession.execute(scope, subscriberId), body.markAs, {});
  }

  @Post('messages/:messageId/actions/:type')
  @ApiOperation({
    summary: 'Record a button of an in-app message as used (done, with a payload) or not (pending)',
    description: 'As the Inbox completes or reverts an action; the message must have a button of that type (400 otherwise).',
  })
  @SubscriberIdParam()
  @ApiParam({ name: 'messageId', description: 'The message id' })
  @ApiParam({ name: 'type', description: 'Which button', enum: ['primary', 'secondary'] })
  @IdempotencyKeyHeader()
  @ApiDataResponse(MessageResponseDto, { status: 201, description: 'The message after the change' })
  @UnknownSubscriberIs400()
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: "No such in-app message of the subscriber's" })
  async action(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Param('messageId') messageId: string,
    @Param() { type }: MessageActionParamsDto,
    @Body() body: MessageActionRequestDto,
  ): Promise<MessageResponseDto> {
    const session = await this.resolveSession.execute(scope, subscriberId, 'invalid');
    const item = await this.changeNotification.applyChange(session, {
      id: messageId,
      action: body.status === 'done' ? 'complete' : 'revert',
      actionType: type,
      ...(body.payload ? { payload: body.payload } : {}),
    });
    return toMessageResponse(item.message, session.subscriber);
  }
}
