import { Body, Controller, Delete, Get, Injectable, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiConflictResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { ChangeWorkflowStatus, CreateWorkflow, DeleteWorkflow, GetWorkflow, ListWorkflows, UpdateWorkflow } from '@app/workflows';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';
import {
  ChangeWorkflowStatusRequestDto,
  CreateWorkflowRequestDto,
  ListWorkflowsQueryDto,
  UpdateWorkflowRequestDto,
  WorkflowListResponseDto,
  WorkflowResponseDto,
} from './workflow.dto';
import { toWorkflowFields, toWorkflowResponse } from './workflow.mapper';

const WorkflowIdParam = () =>
  ApiParam({ name: 'workflowId', description: 'The workflow `_id` (its trigger identifier works too)', example: '66a1f0c2e4b0a1b2c3d4e5f6' });
const IdempotencyKeyHeader = () =>
  ApiHeader({ name: 'idempotency-key', required: false, description: 'Makes a retry of this request safe: replayed for 24 h' });

/**
 * The routes of Novu's v1 workflows, served under two names: /v1/workflows and /v1/notification-templates
 * (what `@novu/node` calls them). Each name is a controller below that only sets its path and tag.
 */
@Injectable()
abstract class WorkflowRoutes {
  constructor(
    private readonly createWorkflow: CreateWorkflow,
    private readonly updateWorkflow: UpdateWorkflow,
    private readonly changeWorkflowStatus: ChangeWorkflowStatus,
    private readonly getWorkflow: GetWorkflow,
    private readonly listWorkflows: ListWorkflows,
    private readonly deleteWorkflow: DeleteWorkflow,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create a workflow',
    description:
      'Novu v1 body. The trigger identifier is `identifier`, else the slug of the name; 409 when a live workflow of the environment has it. ' +
      'As in Novu, a workflow is inactive (a draft) unless `active: true` is sent.',
  })
  @IdempotencyKeyHeader()
  // Distinct from the README's `welcome`, so trying both on a fresh start never collides.
  @ApiBody({
    type: CreateWorkflowRequestDto,
    examples: {
      inApp: {
        summary: 'An active workflow with one in-app step',
        value: {
          name: 'Order shipped',
          identifier: 'order-shipped',
          active: true,
          steps: [{ template: { type: 'in_app', content: 'Order {{payload.orderId}} has shipped' } }],
        },
      },
    },
  })
  @ApiDataResponse(WorkflowResponseDto, { status: 201, description: 'The created workflow' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The trigger identifier is taken' })
  async create(@CurrentScope() scope: AuthenticatedScope, @Body() body: CreateWorkflowRequestDto): Promise<WorkflowResponseDto> {
    const fields = { ...toWorkflowFields(body), name: body.name };
    return toWorkflowResponse(await this.createWorkflow.execute({ scope, creatorId: scope.apiKeyId, fields }));
  }

  @Get()
  @RawResponse()
  @ApiOperation({ summary: 'List the workflows of the environment, newest first, page by page' })
  @ApiOkResponse({ type: WorkflowListResponseDto, description: 'One page of workflows' })
  async list(@CurrentScope() scope: AuthenticatedScope, @Query() query: ListWorkflowsQueryDto): Promise<WorkflowListResponseDto> {
    const { items, totalCount } = await this.listWorkflows.execute({ scope, page: query.page, limit: query.limit, query: query.query });
    return { data: items.map(toWorkflowResponse), totalCount, page: query.page, pageSize: query.limit };
  }

  @Get(':workflowId')
  @ApiOperation({ summary: 'Get a workflow' })
  @WorkflowIdParam()
  @ApiDataResponse(WorkflowResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such workflow in this environment' })
  async get(@CurrentScope() scope: AuthenticatedScope, @Param('workflowId') workflowId: string): Promise<WorkflowResponseDto> {
    return toWorkflowResponse(await this.getWorkflow.execute({ scope, workflowId }));
  }

  @Put(':workflowId')
  @ApiOperation({ summary: 'Update a workflow (fields left out stay as they are; `steps` replaces the list, steps sent with their `_id` keep their ids)' })
  @WorkflowIdParam()
  // A sample of every field would mix step kinds (an email step with digest metadata) and invent ids.
  @ApiBody({
    type: UpdateWorkflowRequestDto,
    examples: {
      steps: {
        summary: 'Rename, tag and replace the steps',
        value: {
          name: 'Order on its way',
          tags: ['orders'],
          steps: [
            { name: 'In-app', template: { type: 'in_app', content: 'Order {{payload.orderId}} is on its way' } },
            { name: 'Email', template: { type: 'email', subject: 'Order {{payload.orderId}}', content: 'Your order is on its way.' } },
          ],
        },
      },
    },
  })
  @ApiDataResponse(WorkflowResponseDto, { description: 'The workflow after the change' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such workflow in this environment' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The new trigger identifier is taken' })
  async update(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('workflowId') workflowId: string,
    @Body() body: UpdateWorkflowRequestDto,
  ): Promise<WorkflowResponseDto> {
    return toWorkflowResponse(await this.updateWorkflow.execute({ scope, workflowId, changes: toWorkflowFields(body) }));
  }

  @Put(':workflowId/status')
  @ApiOperation({ summary: 'Switch a workflow on or off (`active`; draft follows)' })
  @WorkflowIdParam()
  @ApiDataResponse(WorkflowResponseDto, { description: 'The workflow after the change' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'You must provide a different status from the current status' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such workflow in this environment' })
  async changeStatus(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('workflowId') workflowId: string,
    @Body() body: ChangeWorkflowStatusRequestDto,
  ): Promise<WorkflowResponseDto> {
    return toWorkflowResponse(await this.changeWorkflowStatus.execute({ scope, workflowId, active: body.active }));
  }

  @Delete(':workflowId')
  @ApiOperation({ summary: 'Delete a workflow (kept for the messages that embed it; its trigger identifier becomes free)' })
  @WorkflowIdParam()
  @ApiOkResponse({ description: 'Deleted', schema: { type: 'object', required: ['data'], properties: { data: { type: 'boolean', example: true } } } })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such workflow in this environment' })
  async delete(@CurrentScope() scope: AuthenticatedScope, @Param('workflowId') workflowId: string): Promise<boolean> {
    await this.deleteWorkflow.execute({ scope, workflowId, deletedBy: scope.apiKeyId });
    return true;
  }
}

@ApiTags('Workflows')
@ApiCommonErrors()
@Controller({ path: 'workflows', version: '1' })
export class WorkflowsController extends WorkflowRoutes {}

/** Novu's older name of the same routes, as `@novu/node` 2.x calls them. */
@ApiTags('Notification templates')
@ApiCommonErrors()
@Controller({ path: 'notification-templates', version: '1' })
export class NotificationTemplatesController extends WorkflowRoutes {}
