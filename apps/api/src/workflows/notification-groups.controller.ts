import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { GetNotificationGroup, ListNotificationGroups, NotificationGroup } from '@app/workflows';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { NotificationGroupDto } from './workflow.dto';

function toNotificationGroupResponse(group: NotificationGroup): NotificationGroupDto {
  return { _id: group.id, name: group.name, _environmentId: group.environmentId, _organizationId: group.organizationId };
}

/** Novu's notification groups, read only: every environment has one, "General", which every workflow is in. */
@ApiTags('Notification groups')
@ApiCommonErrors()
@Controller({ path: 'notification-groups', version: '1' })
export class NotificationGroupsController {
  constructor(
    private readonly listNotificationGroups: ListNotificationGroups,
    private readonly getNotificationGroup: GetNotificationGroup,
  ) {}

  @Get()
  @ApiOperation({ summary: "The environment's notification groups: its one default group, General" })
  @ApiDataResponse(NotificationGroupDto, { isArray: true, description: 'The groups' })
  list(@CurrentScope() scope: AuthenticatedScope): NotificationGroupDto[] {
    return this.listNotificationGroups.execute({ scope }).map(toNotificationGroupResponse);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A notification group by id (only the default group exists)' })
  @ApiParam({ name: 'id', description: 'The group `_id` (a workflow names it as `_notificationGroupId`)' })
  @ApiDataResponse(NotificationGroupDto, { description: 'The group' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No group with that id' })
  get(@CurrentScope() scope: AuthenticatedScope, @Param('id') id: string): NotificationGroupDto {
    return toNotificationGroupResponse(this.getNotificationGroup.execute({ scope, id }));
  }
}
