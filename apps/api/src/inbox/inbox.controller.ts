import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req, UseGuards, applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  ChangeInboxNotification,
  ChangeInboxNotifications,
  CountInboxNotifications,
  DeleteInboxNotification,
  InboxBulkAction,
  InboxNotificationView,
  ListInboxNotifications,
  StartInboxSession,
  SubscriberSession,
} from '@app/inbox';
import { ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { PublicRoute } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';
import {
  BulkInboxRequestDto,
  InboxFilterEchoDto,
  InboxNotificationDto,
  InboxNotificationsResponseDto,
  MarkSeenRequestDto,
  SnoozeRequestDto,
} from '../shared-dto/inbox.dto';
import { definedOnly } from '../shared-dto/defined-only';
import { bulkFilter, countFilters, filterFromQuery, pageFromQuery, readQuery } from '../shared-dto/inbox-query';
import { ActionRequestDto, InboxCountsResponseDto, InboxSessionRequestDto, InboxSessionResponseDto } from './inbox.dto';
import { CurrentSubscriber, SubscriberTokenGuard } from './subscriber-token.guard';

const Unauthorized = () => ApiResponse({ status: 401, description: 'Missing, forged or expired subscriber token', type: ErrorResponseDto });
const NotificationIdParam = () => ApiParam({ name: 'id', description: 'Notification id (as listed)' });
const ChangeRoute = (summary: string) =>
  applyDecorators(
    UseGuards(SubscriberTokenGuard),
    ApiBearerAuth(),
    ApiOperation({ summary }),
    ApiParam({ name: 'id', description: 'Notification id (as listed)' }),
    ApiDataResponse(InboxNotificationDto, { description: 'The notification after the change' }),
    ApiNotFoundResponse({ type: ErrorResponseDto, description: "No such notification in this subscriber's inbox" }),
    ApiResponse({ status: 401, description: 'Missing, forged or expired subscriber token', type: ErrorResponseDto }),
  );
const ActionRoute = (summary: string) =>
  applyDecorators(ChangeRoute(summary), ApiBadRequestResponse({ type: ErrorResponseDto, description: 'actionType missing, or no button of that type' }));
const BulkRoute = (summary: string, action: string) =>
  applyDecorators(
    UseGuards(SubscriberTokenGuard),
    ApiBearerAuth(),
    HttpCode(204),
    ApiOperation({
      summary,
      description: `Bulk ${action} of the subscriber's notifications, optionally only those with any of \`tags\` and whose data has \`data\`.`,
    }),
    ApiBody({ type: BulkInboxRequestDto, required: false }),
    ApiNoContentResponse({ description: 'Done' }),
    ApiBadRequestResponse({ type: ErrorResponseDto, description: 'tags or data malformed' }),
    ApiResponse({ status: 401, description: 'Missing, forged or expired subscriber token', type: ErrorResponseDto }),
  );
const NotFound = () => ApiNotFoundResponse({ type: ErrorResponseDto, description: "No such notification in this subscriber's inbox" });

/** Novu's Inbox API (what @novu/js and @novu/react call): a subscriber token, never an API key. */
@ApiTags('Inbox')
@PublicRoute()
@Controller({ path: 'inbox', version: '1' })
export class InboxController {
  constructor(
    private readonly startSession: StartInboxSession,
    private readonly listNotifications: ListInboxNotifications,
    private readonly countNotifications: CountInboxNotifications,
    private readonly changeNotification: ChangeInboxNotification,
    private readonly changeNotifications: ChangeInboxNotifications,
    private readonly deleteNotification: DeleteInboxNotification,
  ) {}

  @Post('session')
  @ApiOperation({
    summary: 'Start an Inbox session',
    description:
      'Finds the environment by applicationIdentifier, checks subscriberHash when the environment requires HMAC, creates or updates ' +
      'the subscriber, and answers with a subscriber token (expiring; INBOX_TOKEN_TTL_SECONDS).',
  })
  @ApiDataResponse(InboxSessionResponseDto, { status: 201 })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Unknown applicationIdentifier, no subscriberId, or a missing or wrong subscriberHash' })
  session(@Body() body: InboxSessionRequestDto) {
    return this.startSession.execute({
      applicationIdentifier: body.applicationIdentifier,
      subscriberId: body.subscriberId,
      subscriber: body.subscriber ? { ...body.subscriber } : undefined,
      subscriberHash: body.subscriberHash,
    });
  }

  @Get('notifications')
  @UseGuards(SubscriberTokenGuard)
  @ApiBearerAuth()
  @RawResponse()
  @ApiOperation({
    summary: "List the subscriber's notifications",
    description: 'Newest first; cursor pages: pass the last id as `after`. Snoozed ones only with snoozed=true.',
  })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100 (default 10)' })
  @ApiQuery({ name: 'after', required: false, description: 'Id of the last notification of the previous page' })
  @ApiQuery({ name: 'offset', required: false, description: 'Skip this many' })
  @ApiQuery({ name: 'tags[]', required: false, description: 'Any of these tags (repeat)' })
  @ApiQuery({ name: 'read', required: false, description: 'true or false' })
  @ApiQuery({ name: 'seen', required: false, description: 'true or false' })
  @ApiQuery({ name: 'archived', required: false, description: 'true or false' })
  @ApiQuery({ name: 'snoozed', required: false, description: 'true: only snoozed ones' })
  @ApiQuery({ name: 'data', required: false, description: 'JSON object: data values that must equal' })
  @ApiQuery({ name: 'severity[]', required: false, description: 'Any of these severities (repeat)' })
  @ApiOkResponse({ type: InboxNotificationsResponseDto, description: 'One page' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'A malformed query value' })
  @Unauthorized()
  async list(@CurrentSubscriber() session: SubscriberSession, @Req() request: FastifyRequest): Promise<InboxNotificationsResponseDto> {
    const params = readQuery(request.url);
    const filter = filterFromQuery(params);
    const page = await this.listNotifications.execute(session, filter, pageFromQuery(params));
    return { data: page.data as unknown as InboxNotificationDto[], hasMore: page.hasMore, filter: definedOnly(filter) };
  }

  @Get('notifications/count')
  @UseGuards(SubscriberTokenGuard)
  @ApiBearerAuth()
  @RawResponse()
  @ApiOperation({ summary: 'Count notifications for several filters at once', description: 'Each count comes back with its filter as sent.' })
  @ApiQuery({ name: 'filters', required: true, description: 'JSON array of filters ({tags, read, seen, archived, snoozed, data, severity})' })
  @ApiOkResponse({ type: InboxCountsResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'filters is not a JSON array of filter objects (at most 30)' })
  @Unauthorized()
  async count(@CurrentSubscriber() session: SubscriberSession, @Req() request: FastifyRequest): Promise<InboxCountsResponseDto> {
    const { given, filters } = countFilters(readQuery(request.url).get('filters') ?? '[{}]');
    const counts = await this.countNotifications.execute(session, filters);
    return { data: counts.map((count, index) => ({ count, filter: given[index] as InboxFilterEchoDto })) };
  }

  @Patch('notifications/:id/read')
  @ChangeRoute('Mark one notification read (and seen)')
  read(@CurrentSubscriber() session: SubscriberSession, @Param('id') id: string): Promise<InboxNotificationView> {
    return this.changeNotification.execute(session, { id, action: 'read' });
  }

  @Patch('notifications/:id/unread')
  @ChangeRoute('Mark one notification unread')
  unread(@CurrentSubscriber() session: SubscriberSession, @Param('id') id: string): Promise<InboxNotificationView> {
    return this.changeNotification.execute(session, { id, action: 'unread' });
  }

  @Patch('notifications/:id/archive')
  @ChangeRoute('Archive one notification (it is read too)')
  archive(@CurrentSubscriber() session: SubscriberSession, @Param('id') id: string): Promise<InboxNotificationView> {
    return this.changeNotification.execute(session, { id, action: 'archive' });
  }

  @Patch('notifications/:id/unarchive')
  @ChangeRoute('Unarchive one notification')
  unarchive(@CurrentSubscriber() session: SubscriberSession, @Param('id') id: string): Promise<InboxNotificationView> {
    return this.changeNotification.execute(session, { id, action: 'unarchive' });
  }

  @Patch('notifications/:id/unsnooze')
  @ChangeRoute('Wake one notification from its snooze')
  unsnooze(@CurrentSubscriber() session: SubscriberSession, @Param('id') id: string): Promise<InboxNotificationView> {
    return this.changeNotification.execute(session, { id, action: 'unsnooze' });
  }

  @Patch('notifications/:id/snooze')
  @UseGuards(SubscriberTokenGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Snooze one notification',
    description: 'It leaves the feed and comes back (as a new notification over the socket) at snoozeUntil.',
  })
  @NotificationIdParam()
  @ApiDataResponse(InboxNotificationDto, { description: 'The notification, snoozed' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'snoozeUntil not in the future, or too far ahead' })
  @NotFound()
  @Unauthorized()
  snooze(@CurrentSubscriber() session: SubscriberSession, @Param('id') id: string, @Body() body: SnoozeRequestDto): Promise<InboxNotificationView> {
    return this.changeNotification.execute(session, { id, action: 'snooze', snoozeUntil: new Date(body.snoozeUntil) });
  }

  @Patch('notifications/:id/complete')
  @ActionRoute('Complete a primary or secondary action (cta.action.status done, result.type the button)')
  complete(@CurrentSubscriber() session: SubscriberSession, @Param('id') id: string, @Body() body: ActionRequestDto): Promise<InboxNotificationView> {
    return this.changeNotification.execute(session, { id, action: 'complete', actionType: body.actionType });
  }

  @Patch('notifications/:id/revert')
  @ActionRoute('Revert a completed action (cta.action.status pending, no result)')
  revert(@CurrentSubscriber() session: SubscriberSession, @Param('id') id: string, @Body() body: ActionRequestDto): Promise<InboxNotificationView> {
    return this.changeNotification.execute(session, { id, action: 'revert', actionType: body.actionType });
  }

  @Delete('notifications/:id/delete')
  @UseGuards(SubscriberTokenGuard)
  @ApiBearerAuth()
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete one notification' })
  @NotificationIdParam()
  @ApiNoContentResponse({ description: 'Deleted' })
  @NotFound()
  @Unauthorized()
  async delete(@CurrentSubscriber() session: SubscriberSession, @Param('id') id: string): Promise<void> {
    await this.deleteNotification.execute(session, id);
  }

  @Post('notifications/read')
  @BulkRoute('Mark all read', 'read')
  readAll(@CurrentSubscriber() session: SubscriberSession, @Body() body: BulkInboxRequestDto): Promise<void> {
    return this.bulk(session, 'read', body);
  }

  @Post('notifications/archive')
  @BulkRoute('Archive all', 'archive')
  archiveAll(@CurrentSubscriber() session: SubscriberSession, @Body() body: BulkInboxRequestDto): Promise<void> {
    return this.bulk(session, 'archive', body);
  }

  @Post('notifications/read-archive')
  @BulkRoute('Archive all read ones', 'archive-read')
  archiveRead(@CurrentSubscriber() session: SubscriberSession, @Body() body: BulkInboxRequestDto): Promise<void> {
    return this.bulk(session, 'archive-read', body);
  }

  @Post('notifications/delete')
  @BulkRoute('Delete all', 'delete')
  deleteAll(@CurrentSubscriber() session: SubscriberSession, @Body() body: BulkInboxRequestDto): Promise<void> {
    return this.bulk(session, 'delete', body);
  }

  @Post('notifications/seen')
  @UseGuards(SubscriberTokenGuard)
  @ApiBearerAuth()
  @HttpCode(204)
  @ApiOperation({ summary: 'Mark notifications seen', description: 'Those of notificationIds, or all (optionally by tags and data).' })
  @ApiNoContentResponse({ description: 'Done' })
  @Unauthorized()
  async seen(@CurrentSubscriber() session: SubscriberSession, @Body() body: MarkSeenRequestDto): Promise<void> {
    await this.changeNotifications.execute(session, 'seen', { ...bulkFilter(body), ...(body.notificationIds ? { ids: body.notificationIds } : {}) });
  }
  private async bulk(session: SubscriberSession, action: InboxBulkAction, body: BulkInboxRequestDto): Promise<void> {
    await this.changeNotifications.execute(session, action, bulkFilter(body));
  }
}
