import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { isId } from '@app/kernel';
import { GetNotificationActivity, ListNotifications, NotificationNotFoundError } from '@app/delivery';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';
import { ActivityNotificationResponseDto, ActivityNotificationsResponseDto, ListNotificationsQueryDto } from './notification.dto';
import { toActivityNotificationResponse, toActivityNotificationsResponse } from './notification.mapper';

@ApiTags('Notifications')
@ApiCommonErrors()
@Controller({ path: 'notifications', version: '1' })
export class NotificationsController {
  constructor(
    private readonly getNotificationActivity: GetNotificationActivity,
    private readonly listNotifications: ListNotifications,
  ) {}

  @Get()
  @RawResponse()
  @ApiOperation({
    summary: 'Activity feed: notifications newest first, filtered by transaction, subscriber(s), email, workflow and channel, with their jobs (page-based)',
  })
  @ApiOkResponse({ type: ActivityNotificationsResponseDto, description: 'One page of notifications' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No subscriber with that subscriberId' })
  async list(@CurrentScope() scope: AuthenticatedScope, @Query() query: ListNotificationsQueryDto): Promise<ActivityNotificationsResponseDto> {
    const result = await this.listNotifications.execute(scope, {
      transactionId: query.transactionId,
      subscriberId: query.subscriberId,
      channels: query.channels,
      workflowIds: query.templates,
      emails: query.emails,
      subscriberIds: query.subscriberIds,
      page: query.page,
      limit: query.limit,
    });
    return toActivityNotificationsResponse(result, query);
  }

  @Get(':notificationId')
  @ApiOperation({ summary: 'Get a notification with its jobs, their workflow step, digest and execution details' })
  @ApiParam({ name: 'notificationId', description: 'Notification id', example: '6650a1b2c3d4e5f6a7b8c9d0' })
  @ApiDataResponse(ActivityNotificationResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Notification not found (unknown or malformed id)' })
  async get(@CurrentScope() scope: AuthenticatedScope, @Param('notificationId') notificationId: string): Promise<ActivityNotificationResponseDto> {
    // A malformed id cannot name a notification: 404 without asking the store.
    if (!isId(notificationId)) throw new NotificationNotFoundError();
    return toActivityNotificationResponse(await this.getNotificationActivity.execute(scope, notificationId));
  }
}
