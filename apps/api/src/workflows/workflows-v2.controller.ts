import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { PreviewStep } from '@app/delivery';
import { AuthenticatedScope } from '@app/environments';
import { NotFoundError } from '@app/kernel';
import { CreateWorkflow, DeleteWorkflow, GetWorkflow, ListWorkflows, SyncWorkflow, UpdateWorkflow, Workflow, stepIdentifiers } from '@app/workflows';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import {
  CreateWorkflowV2Dto,
  GeneratePreviewResponseV2Dto,
  GeneratePreviewV2Dto,
  GetWorkflowV2QueryDto,
  ListWorkflowsV2QueryDto,
  PatchWorkflowV2Dto,
  StepV2ResponseDto,
  SyncWorkflowV2Dto,
  UpdateWorkflowV2Dto,
  WorkflowListV2ResponseDto,
  WorkflowV2ResponseDto,
} from './workflow-v2.dto';
import { toPatchFields, toV2Fields, toV2ListItem, toV2Response, toV2Step } from './workflow-v2.mapper';

const WorkflowIdParam = () =>
  ApiParam({ name: 'workflowId', description: 'The workflow’s `workflowId` (trigger identifier), database `id`, or `slug`', example: 'order-shipped' });

/** A step is named by its stepId, its database id, or its slug (`<stepId>_st_<id>`). */
export class StepNotFoundError extends NotFoundError {
  constructor(workflowId: string, stepId: string) {
    super('step_not_found', `Workflow ${workflowId} has no step ${stepId}`, { workflowId, stepId });
  }
}

export function findStep(workflow: Workflow, reference: string): { index: number; stepId: string } | undefined {
  const identifiers = stepIdentifiers(workflow.steps);
  const id = /_st_([0-9a-f]{24})$/.exec(reference)?.[1] ?? reference;
  const index = workflow.steps.findIndex((step) => step.id === id || identifiers.get(step.id) === reference);
  return index < 0 ? undefined : { index, stepId: identifiers.get(workflow.steps[index].id)! };
}

const EXAMPLE = {
  name: 'Order shipped',
  workflowId: 'order-shipped-v2',
  active: true,
  tags: ['orders'],
  payloadSchema: { type: 'object', properties: { orderId: { type: 'string', default: 'A-1' } } },
  steps: [
    { name: 'In-app', type: 'in_app', controlValues: { subject: 'Order shipped', body: 'Order {{payload.orderId}} is on its way' } },
    { name: 'Wait', type: 'delay', controlValues: { type: 'regular', amount: 1, unit: 'hours' } },
    { name: 'Email', type: 'email', controlValues: { subject: 'Order {{payload.orderId}}', body: '<p>It is on its way.</p>', editorType: 'html' } },
  ],
};

/**
 * Novu v2's workflows: the same workflows as /v1/workflows, described by steps with `controlValues`.
 * A workflow written here is rendered with Liquid; one written through v1 keeps Handlebars.
 */
@ApiTags('Workflows (v2)')
@ApiCommonErrors()
@Controller({ path: 'workflows', version: '2' })
export class WorkflowsV2Controller {
  constructor(
    private readonly createWorkflow: CreateWorkflow,
    private readonly updateWorkflow: UpdateWorkflow,
    private readonly getWorkflow: GetWorkflow,
    private readonly listWorkflows: ListWorkflows,
    private readonly deleteWorkflow: DeleteWorkflow,
    private readonly syncWorkflow: SyncWorkflow,
    private readonly previewStep: PreviewStep,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create a workflow',
    description:
      'Steps of every Novu v2 type but `custom` and `tool` (refused with 422 `not_supported`); each step’s `controlValues` are checked against its type’s schema. ' +
      '409 when a live workflow of the environment has the `workflowId`.',
  })
  @ApiBody({ type: CreateWorkflowV2Dto, examples: { orderShipped: { summary: 'In-app, a delay, then an email', value: EXAMPLE } } })
  @ApiDataResponse(WorkflowV2ResponseDto, { status: 201, description: 'The created workflow' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The workflowId is taken' })
  async create(@CurrentScope() scope: AuthenticatedScope, @Body() body: CreateWorkflowV2Dto): Promise<WorkflowV2ResponseDto> {
    const fields = { ...toV2Fields(body), identifier: body.workflowId, name: body.name };
    return toV2Response(await this.createWorkflow.execute({ scope, creatorId: scope.apiKeyId, fields }));
  }

  @Get()
  @ApiOperation({ summary: 'List workflows', description: 'Filter by text, tags and status; sort by creation, update or name.' })
  @ApiDataResponse(WorkflowListV2ResponseDto, { description: 'One page of workflows and how many match' })
  async list(@CurrentScope() scope: AuthenticatedScope, @Query() query: ListWorkflowsV2QueryDto): Promise<WorkflowListV2ResponseDto> {
    const statuses = new Set(query.status ?? []);
    // ERROR is never a workflow's status here (invalid steps are refused when written).
    const active = statuses.size === 0 || (statuses.has('ACTIVE') && statuses.has('INACTIVE')) ? undefined : statuses.has('ACTIVE');
    if (statuses.size > 0 && !statuses.has('ACTIVE') && !statuses.has('INACTIVE')) return { workflows: [], totalCount: 0 };
    const { items, totalCount } = await this.listWorkflows.execute({
      scope,
      page: 0,
      limit: query.limit,
      offset: query.offset,
      query: query.query,
      tags: query.tags,
      active,
      orderBy: query.orderBy === 'lastTriggeredAt' ? 'updatedAt' : query.orderBy,
      orderDirection: query.orderDirection === 'ASC' ? 'asc' : 'desc',
    });
    return { workflows: items.map(toV2ListItem), totalCount };
  }

  @Get(':workflowId')
  @ApiOperation({ summary: 'Get a workflow' })
  @WorkflowIdParam()
  @ApiDataResponse(WorkflowV2ResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such workflow in this environment' })
  async get(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('workflowId') workflowId: string,
    @Query() _query: GetWorkflowV2QueryDto,
  ): Promise<WorkflowV2ResponseDto> {
    return toV2Response(await this.getWorkflow.execute({ scope, workflowId }));
  }

  @Put(':workflowId')
  @ApiOperation({
    summary: 'Update a workflow',
    description: 'Replaces the steps: a step sent with its `id` (or the `stepId` of a step it has) keeps its ids; a step not sent is removed.',
  })
  @WorkflowIdParam()
  @ApiBody({
    type: UpdateWorkflowV2Dto,
    examples: { rename: { summary: 'Rename and replace the steps', value: { ...EXAMPLE, workflowId: undefined, name: 'Order on its way' } } },
  })
  @ApiDataResponse(WorkflowV2ResponseDto, { description: 'The workflow after the change' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such workflow in this environment' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The new workflowId is taken' })
  async update(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('workflowId') workflowId: string,
    @Body() body: UpdateWorkflowV2Dto,
  ): Promise<WorkflowV2ResponseDto> {
    const current = await this.getWorkflow.execute({ scope, workflowId });
    return toV2Response(await this.updateWorkflow.execute({ scope, workflowId: current.id, changes: toV2Fields(body, current.steps) }));
  }

  @Patch(':workflowId')
  @ApiOperation({ summary: 'Change some fields of a workflow (its steps stay as they are)' })
  @WorkflowIdParam()
  @ApiBody({ type: PatchWorkflowV2Dto, examples: { deactivate: { summary: 'Switch it off', value: { active: false } } } })
  @ApiDataResponse(WorkflowV2ResponseDto, { description: 'The workflow after the change' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such workflow in this environment' })
  async patch(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('workflowId') workflowId: string,
    @Body() body: PatchWorkflowV2Dto,
  ): Promise<WorkflowV2ResponseDto> {
    return toV2Response(await this.updateWorkflow.execute({ scope, workflowId, changes: toPatchFields(body) }));
  }

  @Delete(':workflowId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a workflow (kept for the messages that embed it; its workflowId becomes free)' })
  @WorkflowIdParam()
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such workflow in this environment' })
  async delete(@CurrentScope() scope: AuthenticatedScope, @Param('workflowId') workflowId: string): Promise<void> {
    await this.deleteWorkflow.execute({ scope, workflowId, deletedBy: scope.apiKeyId });
  }

  @Put(':workflowId/sync')
  @ApiOperation({
    summary: 'Copy a workflow to another environment',
    description:
      'Publishes one workflow of the key’s environment to the target, matched by workflowId: created there, replaced when it differs, or left as it is. Answers the copy in the target.',
  })
  @WorkflowIdParam()
  @ApiDataResponse(WorkflowV2ResponseDto, { description: 'The workflow as the target environment now has it' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such workflow, or the target is not an environment of your organization' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'The target is the key’s own environment (`publish_same_environment`)' })
  async sync(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('workflowId') workflowId: string,
    @Body() body: SyncWorkflowV2Dto,
  ): Promise<WorkflowV2ResponseDto> {
    return toV2Response(await this.syncWorkflow.execute({ scope, workflowId, targetEnvironmentId: body.targetEnvironmentId, by: scope.apiKeyId }));
  }

  @Get(':workflowId/steps/:stepId')
  @ApiOperation({ summary: 'Get a step of a workflow, with its controls and the variables its content may use' })
  @WorkflowIdParam()
  @ApiParam({ name: 'stepId', description: 'The step’s `stepId`, database `id` or `slug`', example: 'in-app' })
  @ApiDataResponse(StepV2ResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such workflow, or no such step in it' })
  async step(@CurrentScope() scope: AuthenticatedScope, @Param('workflowId') workflowId: string, @Param('stepId') stepId: string): Promise<StepV2ResponseDto> {
    const workflow = await this.getWorkflow.execute({ scope, workflowId });
    const found = findStep(workflow, stepId);
    if (!found) throw new StepNotFoundError(workflowId, stepId);
    return toV2Step(workflow, workflow.steps[found.index], found.index);
  }

  @Post(':workflowId/step/:stepId/preview')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Preview a step',
    description:
      'Renders the step as it would be sent, with the given `controlValues` (else its own) and `previewPayload` (payload, subscriber, actor and earlier ' +
      'steps’ results; what is left out is filled with sample values, the payload from the workflow’s `payloadSchema`). Nothing is sent or stored. A ' +
      'template that cannot render answers `result.error`; an HTTP request step’s secret headers are shown masked.',
  })
  @WorkflowIdParam()
  @ApiParam({ name: 'stepId', description: 'The step’s `stepId`, database `id` or `slug`', example: 'in-app' })
  @ApiBody({
    type: GeneratePreviewV2Dto,
    examples: {
      given: {
        summary: 'Render the in-app step of the example workflow for one payload',
        value: { previewPayload: { payload: { orderId: 'A-42' }, subscriber: { firstName: 'Ada' } } },
      },
      controls: { summary: 'Try other controls', value: { controlValues: { subject: 'Shipped', body: 'Hi {{ subscriber.firstName }}' } } },
    },
  })
  @ApiDataResponse(GeneratePreviewResponseV2Dto, { status: 201, description: 'The rendered step (or its error) and what it was rendered with' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such workflow, or no such step in it' })
  async preview(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('workflowId') workflowId: string,
    @Param('stepId') stepId: string,
    @Body() body: GeneratePreviewV2Dto,
  ): Promise<GeneratePreviewResponseV2Dto> {
    const workflow = await this.getWorkflow.execute({ scope, workflowId });
    const found = findStep(workflow, stepId);
    if (!found) throw new StepNotFoundError(workflowId, stepId);
    return this.previewStep.execute({
      workflow,
      step: workflow.steps[found.index],
      controlValues: body.controlValues,
      previewPayload: body.previewPayload,
    });
  }
}
