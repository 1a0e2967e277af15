import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOperation, ApiParam, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsMongoId } from 'class-validator';
import { AuthenticatedScope } from '@app/environments';
import { SyncWorkflow, Workflow, WorkflowStep, isChannelStep, slugify, workflowSlug } from '@app/workflows';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';

const ID_EXAMPLE = '6650f0a1c2b3d4e5f6a7b8c9';

export class SyncWorkflowRequestDto {
  @ApiProperty({ description: 'The environment to copy the workflow to (another of your organization)', example: ID_EXAMPLE })
  @IsMongoId()
  targetEnvironmentId: string;
}

class SyncedStepDto {
  @ApiProperty({ description: "The step's id (the same in every environment it is published to)", example: ID_EXAMPLE }) _id: string;
  @ApiProperty({ description: 'The step id (its `_id`)', example: ID_EXAMPLE }) stepId: string;
  @ApiProperty({ description: 'Step name', example: 'In-app' }) name: string;
  @ApiProperty({ description: 'Step slug', example: 'in-app_st_6650f0a1c2b3d4e5f6a7b8c9' }) slug: string;
  @ApiProperty({ description: 'Step type', enum: ['in_app', 'email', 'sms', 'chat', 'push', 'digest', 'delay'] }) type: string;
  @ApiProperty({ description: 'Always `novu-cloud` (workflows made through the API)', example: 'novu-cloud' }) origin: 'novu-cloud';
  @ApiProperty({ description: "The workflow's workflowId", example: 'welcome' }) workflowId: string;
  @ApiProperty({ description: "The workflow's `_id` in this environment", example: ID_EXAMPLE }) workflowDatabaseId: string;
  @ApiProperty({ description: "The step's content as control values", type: 'object', additionalProperties: true })
  controlValues: Record<string, unknown>;
  @ApiProperty({ description: '`{values}`: the control values again', type: 'object', additionalProperties: true })
  controls: { values: Record<string, unknown> };
  @ApiProperty({ description: 'Variables schema (empty)', type: 'object', additionalProperties: true }) variables: Record<string, unknown>;
}

export class SyncedWorkflowResponseDto {
  @ApiProperty({ description: "The copy's id in the target environment", example: ID_EXAMPLE }) _id: string;
  @ApiProperty({ description: 'The workflowId (trigger identifier), the same in both environments', example: 'welcome' }) workflowId: string;
  @ApiProperty({ description: 'Slug', example: 'welcome_wf_6650f0a1c2b3d4e5f6a7b8c9' }) slug: string;
  @ApiProperty({ description: 'Workflow name', example: 'Welcome' }) name: string;
  @ApiProperty({ description: 'Description', example: '' }) description: string;
  @ApiProperty({ description: 'Tags', type: [String] }) tags: string[];
  @ApiProperty({ description: 'Whether triggers run it' }) active: boolean;
  @ApiProperty({ description: '`ACTIVE` or `INACTIVE`, as `active`', enum: ['ACTIVE', 'INACTIVE'] }) status: 'ACTIVE' | 'INACTIVE';
  @ApiProperty({ description: 'Always `novu-cloud`', example: 'novu-cloud' }) origin: 'novu-cloud';
  @ApiProperty({ description: 'Always `none`', example: 'none' }) severity: 'none';
  @ApiProperty({ description: 'Channel defaults: `{default: {all, channels}}`', type: 'object', additionalProperties: true })
  preferences: Record<string, unknown>;
  @ApiProperty({ type: [SyncedStepDto], description: 'The steps, in order' }) steps: SyncedStepDto[];
  @ApiProperty({ description: 'ISO-8601' }) createdAt: string;
  @ApiProperty({ description: 'ISO-8601' }) updatedAt: string;
  @ApiPropertyOptional({ description: 'When a publish last wrote it (ISO-8601)', nullable: true, type: String }) lastPublishedAt: string | null;
  @ApiPropertyOptional({ description: 'Who published it: `{_id}`, the API key id', nullable: true, type: Object }) lastPublishedBy: { _id: string } | null;
}

/** A step's content in v2's control-value terms, as far as the v1 model has them. */
function controlValues(step: WorkflowStep): Record<string, unknown> {
  const t = step.template;
  const body = Array.isArray(t.content) ? t.content.map((block) => block.content).join('\n') : (t.content ?? '');
  if (isChannelStep(t.type)) {
    if (t.type === 'email')
      return { subject: t.subject ?? '', body, editorType: t.contentType === 'customHtml' ? 'html' : 'block', disableOutputSanitization: false };
    if (t.type === 'in_app')
      return { body, ...(t.subject ? { subject: t.subject } : {}), ...(t.avatar ? { avatar: t.avatar } : {}), disableOutputSanitization: false };
    return { body, ...(t.title ? { subject: t.title } : {}) };
  }
  return { ...(step.metadata ?? {}) };
}

function toSyncedStep(workflow: Workflow, step: WorkflowStep): SyncedStepDto {
  const values = controlValues(step);
  return {
    _id: step.id,
    stepId: step.id,
    name: step.name,
    slug: `${slugify(step.name) || step.template.type}_st_${step.id}`,
    type: step.template.type,
    origin: 'novu-cloud',
    workflowId: workflow.trigger.identifier,
    workflowDatabaseId: workflow.id,
    controlValues: values,
    controls: { values },
    variables: {},
  };
}

function toSyncedWorkflow(workflow: Workflow): SyncedWorkflowResponseDto {
  const { all, ...channels } = { all: true, ...workflow.preferenceSettings };
  return {
    _id: workflow.id,
    workflowId: workflow.trigger.identifier,
    slug: workflowSlug(workflow),
    name: workflow.name,
    description: workflow.description,
    tags: workflow.tags,
    active: workflow.active,
    status: workflow.active ? 'ACTIVE' : 'INACTIVE',
    origin: 'novu-cloud',
    severity: 'none',
    preferences: {
      default: {
        all: { enabled: all, readOnly: workflow.critical },
        channels: Object.fromEntries(Object.entries(channels).map(([channel, enabled]) => [channel, { enabled }])),
      },
      user: null,
    },
    steps: workflow.steps.map((step) => toSyncedStep(workflow, step)),
    createdAt: workflow.createdAt.toISOString(),
    updatedAt: workflow.updatedAt.toISOString(),
    lastPublishedAt: workflow.lastPublishedAt?.toISOString() ?? null,
    lastPublishedBy: workflow.lastPublishedBy ? { _id: workflow.lastPublishedBy } : null,
  };
}

/** Novu's one-workflow publish: PUT /v2/workflows/{workflowId}/sync. */
@ApiTags('Workflows')
@ApiCommonErrors()
@Controller({ path: 'workflows', version: '2' })
export class WorkflowSyncController {
  constructor(private readonly syncWorkflow: SyncWorkflow) {}

  @Put(':workflowId/sync')
  @ApiOperation({
    summary: 'Copy a workflow to another environment',
    description:
      "Publishes one workflow of the key's environment to the target (matched by workflowId: created there, or replaced when it differs, or left as it is). " +
      'Answers the copy in the target.',
  })
  @ApiParam({ name: 'workflowId', description: "The workflow's workflowId (trigger identifier) or `_id`", example: 'welcome' })
  @ApiDataResponse(SyncedWorkflowResponseDto, { description: 'The workflow as the target environment now has it' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such workflow, or the target is not an environment of your organization' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: "The target is the key's own environment (`publish_same_environment`)" })
  async sync(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('workflowId') workflowId: string,
    @Body() body: SyncWorkflowRequestDto,
  ): Promise<SyncedWorkflowResponseDto> {
    return toSyncedWorkflow(await this.syncWorkflow.execute({ scope, workflowId, targetEnvironmentId: body.targetEnvironmentId, by: scope.apiKeyId }));
  }
}
