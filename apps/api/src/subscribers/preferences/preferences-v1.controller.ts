import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { NotFoundError } from '@app/kernel';
import { GetSubscriberPreferences, UpdateSubscriberPreferences } from '@app/subscribers';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../../docs/api-responses';
import { IdempotencyKeyHeader, SubscriberIdParam, SubscriberNotFound } from '../route-docs';
import { CurrentScope } from '../../http/api-key.guard';
import { toGlobalPreferenceV1, toWorkflowPreferenceV1 } from './preferences.mapper';
import {
  GlobalPreferencesV1ResponseDto,
  PreferenceLevelParamsDto,
  PreferencesV1QueryDto,
  UpdateGlobalPreferencesV1RequestDto,
  UpdateWorkflowPreferenceV1RequestDto,
  WorkflowPreferenceV1Dto,
} from './preferences-v1.dto';

/**
 * Novu's v1 preference routes (what `@novu/node` 2.x calls), on the use cases of
 * /v2/subscribers/{id}/preferences, answered in Novu's v1 shapes (`{template, preference}`).
 */
@ApiTags('Subscribers (v1)')
@ApiCommonErrors()
@Controller({ path: 'subscribers/:subscriberId/preferences', version: '1' })
export class PreferencesV1Controller {
  constructor(
    private readonly getPreferences: GetSubscriberPreferences,
    private readonly updatePreferences: UpdateSubscriberPreferences,
  ) {}

  @Get()
  @ApiOperation({ summary: "A subscriber's preference for each active workflow, critical ones included" })
  @SubscriberIdParam()
  @ApiDataResponse(WorkflowPreferenceV1Dto, { isArray: true })
  @SubscriberNotFound()
  async list(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Query() _query: PreferencesV1QueryDto,
  ): Promise<WorkflowPreferenceV1Dto[]> {
    const view = await this.getPreferences.execute({ scope, subscriberId, criticality: 'all' });
    return view.workflows.map(toWorkflowPreferenceV1);
  }

  @Get(':parameter')
  @ApiOperation({ summary: "A subscriber's preferences of one level: [the global preference], or one entry per active workflow" })
  @SubscriberIdParam()
  @ApiParam({ name: 'parameter', description: 'The level: global or template', enum: ['global', 'template'] })
  @ApiOkResponse({
    description: '`{data: [...]}`: one global preference, or the workflows as GET …/preferences answers them',
    schema: {
      type: 'object',
      properties: {
        data: { type: 'array', items: { oneOf: [{ $ref: getSchemaPath(GlobalPreferencesV1ResponseDto) }, { $ref: getSchemaPath(WorkflowPreferenceV1Dto) }] } },
      },
    },
  })
  @SubscriberNotFound()
  async byLevel(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Param() { parameter }: PreferenceLevelParamsDto,
  ): Promise<(GlobalPreferencesV1ResponseDto | WorkflowPreferenceV1Dto)[]> {
    const view = await this.getPreferences.execute({ scope, subscriberId, criticality: 'all' });
    return parameter === 'global' ? [toGlobalPreferenceV1(view)] : view.workflows.map(toWorkflowPreferenceV1);
  }

  @Patch()
  @ApiOperation({
    summary: "Change a subscriber's global preferences",
    description:
      '`enabled: false` turns every non-critical workflow off for the subscriber (their channel choices are kept for when it is turned back on); ' +
      "each `preferences` entry turns a channel on or off everywhere, clearing that channel's per-workflow choices.",
  })
  @SubscriberIdParam()
  @IdempotencyKeyHeader()
  @ApiDataResponse(GlobalPreferencesV1ResponseDto, { description: 'The global preference after the change' })
  @SubscriberNotFound()
  async updateGlobal(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Body() body: UpdateGlobalPreferencesV1RequestDto,
  ): Promise<GlobalPreferencesV1ResponseDto> {
    const channels = Object.fromEntries((body.preferences ?? []).map((entry) => [entry.type, entry.enabled]));
    const view = await this.updatePreferences.execute({ scope, subscriberId, channels, enabled: body.enabled });
    return toGlobalPreferenceV1(view);
  }

  @Patch(':parameter')
  @ApiOperation({
    summary: "Change a subscriber's preference for one workflow: one channel, or the workflow as a whole (enabled)",
    description: 'The workflow by internal id, trigger identifier or slug. 400 for a critical workflow.',
  })
  @SubscriberIdParam()
  @ApiParam({ name: 'parameter', description: 'The workflow: internal id, trigger identifier or slug', example: 'welcome' })
  @IdempotencyKeyHeader()
  @ApiDataResponse(WorkflowPreferenceV1Dto, { description: "The workflow's preference after the change" })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such subscriber or workflow (or the workflow is inactive)' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'The workflow is critical' })
  async updateWorkflow(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Param('parameter') workflowId: string,
    @Body() body: UpdateWorkflowPreferenceV1RequestDto,
  ): Promise<WorkflowPreferenceV1Dto> {
    const view = await this.updatePreferences.execute({
      scope,
      subscriberId,
      workflowId,
      channels: body.channel ? { [body.channel.type]: body.channel.enabled } : {},
      enabled: body.enabled,
    });
    const changed = view.workflows.find(({ workflow }) => [workflow.id, workflow.identifier, workflow.slug].includes(workflowId));
    // Only active workflows are listed; the choice is stored and applies once the workflow is active again.
    if (!changed) throw new NotFoundError('workflow_not_active', `Workflow ${workflowId} is not active: the preference is stored but not listed`);
    return toWorkflowPreferenceV1(changed);
  }
}
