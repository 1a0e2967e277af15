import { Controller, Delete, Get, Patch, Post, Put, applyDecorators } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiCommonErrors, ErrorResponseDto } from '../docs/api-responses';
import { Family, NotSupportedError, WHY } from '../http/not-supported';

const NotSupported = (family: Family, ...params: string[]) =>
  applyDecorators(
    ApiOperation({ summary: `Not supported (Novu's ${family} API): answers 404 not_supported`, description: WHY[family] }),
    ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Always: code `not_supported`, the message says why' }),
    ...params.map((name) => ApiParam({ name, description: `${PARAMS[name]} (not read)` })),
  );

const PARAMS: Record<string, string> = {
  feedId: 'Id of the feed',
  layoutId: 'Id of the layout',
  id: 'Id of the notification group',
  changeId: 'Id of the change',
  memberId: 'Id of the member',
  environmentId: 'Id of the environment',
  workflowId: 'Id of the workflow',
  tenantId: 'Id of the tenant',
  overrideId: 'Id of the workflow override',
};

/**
 * The routes of those families that @novu/node 2.x calls, each a clear 404 (`code: not_supported`) so a
 * client learns at once that the feature is missing, not that it mistyped a path. Not retried by clients
 * either, as a 5xx would be.
 */
@ApiTags('Not supported')
@ApiCommonErrors()
@Controller({ version: '1' })
export class NotSupportedController {
  @Post('feeds')
  @NotSupported('feeds')
  createFeed(): never {
    throw new NotSupportedError('feeds');
  }

  @Get('feeds')
  @NotSupported('feeds')
  listFeeds(): never {
    throw new NotSupportedError('feeds');
  }

  @Delete('feeds/:feedId')
  @NotSupported('feeds', 'feedId')
  deleteFeed(): never {
    throw new NotSupportedError('feeds');
  }

  @Post('layouts')
  @NotSupported('layouts')
  createLayout(): never {
    throw new NotSupportedError('layouts');
  }

  @Get('layouts')
  @NotSupported('layouts')
  listLayouts(): never {
    throw new NotSupportedError('layouts');
  }

  @Patch('layouts/:layoutId')
  @NotSupported('layouts', 'layoutId')
  updateLayout(): never {
    throw new NotSupportedError('layouts');
  }

  @Delete('layouts/:layoutId')
  @NotSupported('layouts', 'layoutId')
  deleteLayout(): never {
    throw new NotSupportedError('layouts');
  }

  @Post('layouts/:layoutId/default')
  @NotSupported('layouts', 'layoutId')
  setDefaultLayout(): never {
    throw new NotSupportedError('layouts');
  }

  @Post('notification-groups')
  @NotSupported('notification-groups')
  createNotificationGroup(): never {
    throw new NotSupportedError('notification-groups');
  }

  @Patch('notification-groups/:id')
  @NotSupported('notification-groups', 'id')
  updateNotificationGroup(): never {
    throw new NotSupportedError('notification-groups');
  }

  @Delete('notification-groups/:id')
  @NotSupported('notification-groups', 'id')
  deleteNotificationGroup(): never {
    throw new NotSupportedError('notification-groups');
  }

  @Get('changes')
  @NotSupported('changes')
  listChanges(): never {
    throw new NotSupportedError('changes');
  }

  @Get('changes/count')
  @NotSupported('changes')
  countChanges(): never {
    throw new NotSupportedError('changes');
  }

  @Post('changes/bulk/apply')
  @NotSupported('changes')
  applyChanges(): never {
    throw new NotSupportedError('changes');
  }

  @Post('changes/:changeId/apply')
  @NotSupported('changes', 'changeId')
  applyChange(): never {
    throw new NotSupportedError('changes');
  }

  @Get('organizations')
  @NotSupported('organizations')
  listOrganizations(): never {
    throw new NotSupportedError('organizations');
  }

  @Post('organizations')
  @NotSupported('organizations')
  createOrganization(): never {
    throw new NotSupportedError('organizations');
  }

  @Patch('organizations')
  @NotSupported('organizations')
  renameOrganization(): never {
    throw new NotSupportedError('organizations');
  }

  @Get('organizations/me')
  @NotSupported('organizations')
  currentOrganization(): never {
    throw new NotSupportedError('organizations');
  }

  @Get('organizations/members')
  @NotSupported('organizations')
  listMembers(): never {
    throw new NotSupportedError('organizations');
  }

  @Delete('organizations/members/:memberId')
  @NotSupported('organizations', 'memberId')
  removeMember(): never {
    throw new NotSupportedError('organizations');
  }

  @Put('organizations/members/:memberId/roles')
  @NotSupported('organizations', 'memberId')
  updateMemberRole(): never {
    throw new NotSupportedError('organizations');
  }

  @Put('organizations/branding')
  @NotSupported('organizations')
  updateBranding(): never {
    throw new NotSupportedError('organizations');
  }

  @Get('environments/api-keys')
  @NotSupported('environments')
  listApiKeys(): never {
    throw new NotSupportedError('environments');
  }

  @Post('environments/api-keys/regenerate')
  @NotSupported('environments')
  regenerateApiKeys(): never {
    throw new NotSupportedError('environments');
  }

  @Post('workflow-overrides')
  @NotSupported('workflow-overrides')
  createWorkflowOverride(): never {
    throw new NotSupportedError('workflow-overrides');
  }

  @Get('workflow-overrides')
  @NotSupported('workflow-overrides')
  listWorkflowOverrides(): never {
    throw new NotSupportedError('workflow-overrides');
  }

  @Get('workflow-overrides/workflows/:workflowId/tenants/:tenantId')
  @NotSupported('workflow-overrides', 'workflowId', 'tenantId')
  getWorkflowOverrideOfTenant(): never {
    throw new NotSupportedError('workflow-overrides');
  }

  @Put('workflow-overrides/workflows/:workflowId/tenants/:tenantId')
  @NotSupported('workflow-overrides', 'workflowId', 'tenantId')
  updateWorkflowOverrideOfTenant(): never {
    throw new NotSupportedError('workflow-overrides');
  }

  @Get('workflow-overrides/:overrideId')
  @NotSupported('workflow-overrides', 'overrideId')
  getWorkflowOverride(): never {
    throw new NotSupportedError('workflow-overrides');
  }

  @Put('workflow-overrides/:overrideId')
  @NotSupported('workflow-overrides', 'overrideId')
  updateWorkflowOverride(): never {
    throw new NotSupportedError('workflow-overrides');
  }

  @Delete('workflow-overrides/:overrideId')
  @NotSupported('workflow-overrides', 'overrideId')
  deleteWorkflowOverride(): never {
    throw new NotSupportedError('workflow-overrides');
  }

  @Get('inbound-parse/mx/status')
  @NotSupported('inbound-parse')
  inboundParseMxStatus(): never {
    throw new NotSupportedError('inbound-parse');
  }
}
