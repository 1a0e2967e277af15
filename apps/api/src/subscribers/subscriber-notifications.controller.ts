import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AuthenticatedScope } from '@app/environments';
import {
  ChangeInboxNotification,
  ChangeInboxNotificationCommand,
  ChangeInboxNotifications,
  CountInboxNotifications,
  DeleteInboxNotification,
  InboxBulkAction,
  InboxFilter,
  InboxNotificationView,
  ListInboxNotifications,
  ResolveSubscriberSession,
} from '@app/inbox';
import { InvalidRequestError } from '@app/kernel';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';
import { InboxCountDto, InboxFilterEchoDto, InboxNotificationDto, InboxNotificationsResponseDto, SnoozeRequestDto } from '../shared-dto/inbox.dto';
import { definedOnly } from '../shared-dto/defined-only';
import { bulkFilter, countFilters, filterFromQuery, pageFromQuery, readQuery } from '../shared-dto/inbox-query';
import { IdempotencyKeyHeader, SubscriberIdParam, SubscriberNotFound } from './route-docs';
import {
  CONTEXT_KEYS_DESCRIPTION,
  ContextKeysQueryDto,
  MarkSubscriberNotificationsAsSeenRequestDto,
  NotificationActionParamsDto,
  UpdateAllSubscriberNotificationsRequestDto,
} from './subscriber-notifications.dto';

/**
 * Novu's `contextKeys` filter: only the notifications sent within exactly these contexts (`type:id`
 * keys, in any order); none given (or only empty strings) filters nothing.
 */
function contextFilter(contextKeys: unknown): Pick<InboxFilter, 'contextKeys'> {
  const keys = (contextKeys === undefined || contextKeys === null ? [] : Array.isArray(contextKeys) ? contextKeys : [contextKeys]).filter((key) => key !== '');
  if (keys.some((key) => typeof key !== 'string')) throw new InvalidRequestError('invalid_query', 'contextKeys must be strings (type:id)');
  return keys.length ? { contextKeys: keys as string[] } : {};
}

const NotificationIdParam = () => ApiParam({ name: 'notificationId', description: 'Id of the in-app notification (as listed)' });
const NotificationNotFound = () =>
  ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No subscriber with that subscriberId, or no such notification of theirs' });
const ChangeRoute = (summary: string) =>
  applyDecorators(
    ApiOperation({ summary }),
    SubscriberIdParam(),
    NotificationIdParam(),
    IdempotencyKeyHeader(),
    ApiDataResponse(InboxNotificationDto, { description: 'The notification after the change' }),
    NotificationNotFound(),
  );
const ActionRoute = (summary: string) =>
  applyDecorators(
    ChangeRoute(summary),
    ApiParam({ name: 'actionType', description: 'Which button', enum: ['primary', 'secondary'] }),
    ApiBadRequestResponse({ type: ErrorResponseDto, description: 'The notification has no button of that type' }),
  );
const BulkRoute = (summary: string, description: string) =>
  applyDecorators(
    HttpCode(204),
    ApiOperation({ summary, description: `${description} Optionally only those with any of \`tags\` and whose data has \`data\`.` }),
    SubscriberIdParam(),
    IdempotencyKeyHeader(),
    ApiBody({ type: UpdateAllSubscriberNotificationsRequestDto, required: false }),
    ApiNoContentResponse({ description: 'Done' }),
    ApiBadRequestResponse({ type: ErrorResponseDto, description: 'tags or data malformed' }),
    SubscriberNotFound(),
  );

/**
 * Novu's v2 routes of one subscriber's in-app notifications, on the Inbox's own use cases: the API key's
 * caller names the subscriber, and the answers are the Inbox's notification shape.
 */
@ApiTags('Subscribers')
@ApiCommonErrors()
@Controller({ path: 'subscribers/:subscriberId/notifications', version: '2' })
export class SubscriberNotificationsController {
  constructor(
    private readonly resolveSession: ResolveSubscriberSession,
    private readonly listNotifications: ListInboxNotifications,
    private readonly countNotifications: CountInboxNotifications,
    private readonly changeNotification: ChangeInboxNotification,
    private readonly changeNotifications: ChangeInboxNotifications,
    private readonly deleteNotification: DeleteInboxNotification,
  ) {}

  @Get()
  @RawResponse()
  @ApiOperation({
    summary: "List the subscriber's in-app notifications",
    description: 'Newest first; cursor pages: pass the last id as `after`. Snoozed ones only with snoozed=true.',
  })
  @SubscriberIdParam()
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100 (default 10)', example: 10 })
  @ApiQuery({ name: 'after', required: false, description: 'Id of the last notification of the previous page' })
  @ApiQuery({ name: 'offset', required: false, description: 'Skip this many', example: 0 })
  @ApiQuery({ name: 'read', required: false, description: 'Only read (true) or unread (false) ones', enum: ['true', 'false'] })
  @ApiQuery({ name: 'seen', required: false, description: 'Only seen (true) or unseen (false) ones', enum: ['true', 'false'] })
  @ApiQuery({ name: 'archived', required: false, description: 'Only archived (true) or unarchived (false) ones', enum: ['true', 'false'] })
  @ApiQuery({ name: 'snoozed', required: false, description: 'true: only snoozed ones', enum: ['true', 'false'] })
  @ApiQuery({ name: 'tags', required: false, description: 'Any of these workflow tags (repeat)', type: [String] })
  @ApiQuery({ name: 'severity', required: false, description: 'Any of these severities (repeat)', enum: ['high', 'medium', 'low', 'none'], isArray: true })
  @ApiQuery({ name: 'data', required: false, description: 'JSON object: data values that must equal', example: '{"orderId":"A-1001"}' })
  @ApiQuery({ name: 'createdGte', required: false, description: 'Created at or after (Unix time in milliseconds)', example: 1735689600000 })
  @ApiQuery({ name: 'createdLte', required: false, description: 'Created at or before (Unix time in milliseconds)', example: 1767225600000 })
  @ApiQuery({ name: 'contextKeys', required: false, description: CONTEXT_KEYS_DESCRIPTION, type: [String] })
  @ApiOkResponse({ type: InboxNotificationsResponseDto, description: 'One page' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'A malformed query value' })
  @SubscriberNotFound()
  async list(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Req() request: FastifyRequest,
  ): Promise<InboxNotificationsResponseDto> {
    const params = readQuery(request.url);
    const filter = { ...filterFromQuery(params), ...contextFilter([...params.getAll('contextKeys'), ...params.getAll('contextKeys[]')]) };
    const page = pageFromQuery(params);
    const session = await this.resolveSession.execute(scope, subscriberId);
    const found = await this.listNotifications.execute(session, filter, page);
    return { data: found.data as unknown as InboxNotificationDto[], hasMore: found.hasMore, filter: definedOnly(filter) };
  }

  @Get('count')
  @ApiOperation({
    summary: "Count the subscriber's in-app notifications for several filters at once",
    description: 'Each count comes back with its filter as sent.',
  })
  @SubscriberIdParam()
  @ApiQuery({
    name: 'filters',
    required: true,
    description: 'JSON array of at most 30 filters ({tags, read, seen, archived, snoozed, data, severity})',
    example: '[{"read":false,"archived":false},{"tags":["billing"]}]',
  })
  @ApiDataResponse(InboxCountDto, { isArray: true, description: 'One count per filter, in order' })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'filters missing or not a JSON array of filter objects, or no subscriber with that subscriberId',
  })
  async count(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Req() request: FastifyRequest,
  ): Promise<InboxCountDto[]> {
    const raw = readQuery(request.url).get('filters');
    if (raw === null) throw new InvalidRequestError('invalid_query', 'filters is required: a JSON array of filters');
    const { given, filters: parsed } = countFilters(raw);
    const filters = parsed.map((filter, index) => ({ ...filter, ...contextFilter((given[index] as { contextKeys?: unknown }).contextKeys) }));
    // Novu answers a count for an unknown subscriber with 400, its other notification routes with 404.
    const session = await this.resolveSession.execute(scope, subscriberId, 'invalid');
    const counts = await this.countNotifications.execute(session, filters);
    return counts.map((count, index) => ({ count, filter: given[index] as InboxFilterEchoDto }));
  }

  @Post('read')
  @BulkRoute('Mark all read', 'Marks read (and seen) every unread notification of the subscriber.')
  readAll(@CurrentScope() scope: AuthenticatedScope, @Param('subscriberId') subscriberId: string, @Body() body: UpdateAllSubscriberNotificationsRequestDto) {
    return this.bulk(scope, subscriberId, 'read', body);
  }

  @Post('archive')
  @BulkRoute('Archive all', 'Archives (and reads) every notification of the subscriber.')
  archiveAll(@CurrentScope() scope: AuthenticatedScope, @Param('subscriberId') subscriberId: string, @Body() body: UpdateAllSubscriberNotificationsRequestDto) {
    return this.bulk(scope, subscriberId, 'archive', body);
  }

  @Post('read-archive')
  @BulkRoute('Archive all read ones', 'Archives every read notification of the subscriber.')
  archiveAllRead(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Body() body: UpdateAllSubscriberNotificationsRequestDto,
  ) {
    return this.bulk(scope, subscriberId, 'archive-read', body);
  }

  @Post('delete')
  @BulkRoute('Delete all', 'Deletes every notification of the subscriber.')
  deleteAll(@CurrentScope() scope: AuthenticatedScope, @Param('subscriberId') subscriberId: string, @Body() body: UpdateAllSubscriberNotificationsRequestDto) {
    return this.bulk(scope, subscriberId, 'delete', body);
  }

  @Post('seen')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Mark notifications seen',
    description: 'Those of notificationIds, or all (optionally only those with any of `tags` and whose data has `data`).',
  })
  @SubscriberIdParam()
  @IdempotencyKeyHeader()
  @ApiNoContentResponse({ description: 'Done' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'tags or data malformed' })
  @SubscriberNotFound()
  async seen(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Body() body: MarkSubscriberNotificationsAsSeenRequestDto,
  ): Promise<void> {
    const session = await this.resolveSession.execute(scope, subscriberId);
    const filter = { ...bulkFilter(body), ...contextFilter(body.contextKeys), ...(body.notificationIds ? { ids: body.notificationIds } : {}) };
    await this.changeNotifications.execute(session, 'seen', filter);
  }

  @Patch(':notificationId/read')
  @ChangeRoute('Mark one notification read (and seen)')
  read(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') notificationId: string,
    @Query() query: ContextKeysQueryDto,
  ) {
    return this.change(scope, subscriberId, notificationId, query, { action: 'read' });
  }

  @Patch(':notificationId/unread')
  @ChangeRoute('Mark one notification unread')
  unread(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') notificationId: string,
    @Query() query: ContextKeysQueryDto,
  ) {
    return this.change(scope, subscriberId, notificationId, query, { action: 'unread' });
  }

  @Patch(':notificationId/archive')
  @ChangeRoute('Archive one notification (it is read too)')
  archive(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') notificationId: string,
    @Query() query: ContextKeysQueryDto,
  ) {
    return this.change(scope, subscriberId, notificationId, query, { action: 'archive' });
  }

  @Patch(':notificationId/unarchive')
  @ChangeRoute('Unarchive one notification')
  unarchive(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') notificationId: string,
    @Query() query: ContextKeysQueryDto,
  ) {
    return this.change(scope, subscriberId, notificationId, query, { action: 'unarchive' });
  }

  @Patch(':notificationId/snooze')
  @ChangeRoute('Snooze one notification: it leaves the feed and comes back at snoozeUntil')
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'snoozeUntil not in the future, or too far ahead' })
  snooze(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') notificationId: string,
    @Query() query: ContextKeysQueryDto,
    @Body() body: SnoozeRequestDto,
  ) {
    return this.change(scope, subscriberId, notificationId, query, { action: 'snooze', snoozeUntil: new Date(body.snoozeUntil) });
  }

  @Patch(':notificationId/unsnooze')
  @ChangeRoute('Wake one notification from its snooze')
  unsnooze(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') notificationId: string,
    @Query() query: ContextKeysQueryDto,
  ) {
    return this.change(scope, subscriberId, notificationId, query, { action: 'unsnooze' });
  }

  @Patch(':notificationId/actions/:actionType/complete')
  @ActionRoute('Complete a primary or secondary action (cta.action.status done, result.type the button)')
  complete(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') notificationId: string,
    @Param() { actionType }: NotificationActionParamsDto,
    @Query() query: ContextKeysQueryDto,
  ) {
    return this.change(scope, subscriberId, notificationId, query, { action: 'complete', actionType });
  }

  @Patch(':notificationId/actions/:actionType/revert')
  @ActionRoute('Revert a completed action (cta.action.status pending, no result)')
  revert(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') notificationId: string,
    @Param() { actionType }: NotificationActionParamsDto,
    @Query() query: ContextKeysQueryDto,
  ) {
    return this.change(scope, subscriberId, notificationId, query, { action: 'revert', actionType });
  }

  @Delete(':notificationId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete one notification' })
  @SubscriberIdParam()
  @NotificationIdParam()
  @ApiNoContentResponse({ description: 'Deleted' })
  @NotificationNotFound()
  async remove(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') notificationId: string,
    @Query() query: ContextKeysQueryDto,
  ): Promise<void> {
    // One notification is named by its id: its contexts are not matched, the keys only checked.
    contextFilter(query.contextKeys);
    await this.deleteNotification.execute(await this.resolveSession.execute(scope, subscriberId), notificationId);
  }

  private async bulk(
    scope: AuthenticatedScope,
    subscriberId: string,
    action: InboxBulkAction,
    body: UpdateAllSubscriberNotificationsRequestDto,
  ): Promise<void> {
    const filter = { ...bulkFilter(body), ...contextFilter(body.contextKeys) };
    await this.changeNotifications.execute(await this.resolveSession.execute(scope, subscriberId), action, filter);
  }

  private async change(
    scope: AuthenticatedScope,
    subscriberId: string,
    notificationId: string,
    query: ContextKeysQueryDto,
    command: Omit<ChangeInboxNotificationCommand, 'id'>,
  ): Promise<InboxNotificationView> {
    // One notification is named by its id: its contexts are not matched, the keys only checked.
    contextFilter(query.contextKeys);
    return this.changeNotification.execute(await this.resolveSession.execute(scope, subscriberId), { ...command, id: notificationId });
  }
}
