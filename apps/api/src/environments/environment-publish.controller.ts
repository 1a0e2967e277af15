import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { DiffEnvironments, ListEnvironmentTags, PublishEnvironment, PublishResource, PublishResourceTypeUnsupportedError } from '@app/workflows';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import {
  DiffEnvironmentRequestDto,
  DiffEnvironmentResponseDto,
  EnvironmentTagDto,
  PublishEnvironmentRequestDto,
  PublishEnvironmentResponseDto,
  ResourceToPublishDto,
} from './environment.dto';
import { toDiffResponse, toPublishResponse } from './environment.mapper';

const ENVIRONMENT_ID_EXAMPLE = '6650f0a1c2b3d4e5f6a7b8c9';
const TargetParam = () =>
  ApiParam({ name: 'targetEnvironmentId', description: 'The environment to publish to (of your organization)', example: ENVIRONMENT_ID_EXAMPLE });
const Refusals = () =>
  ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'Source and target are one environment (`publish_same_environment`), or a resource is unknown or neither a workflow nor a layout',
  });
const NotFound = () =>
  ApiNotFoundResponse({ type: ErrorResponseDto, description: 'An environment is not one of your organization, or there is no Development environment' });

/** Resource types that name workflows: Novu's `workflow`, and the values @novu/api 3.x sends (its enum of that name). */
const WORKFLOW_RESOURCE_TYPES = new Set(['workflow', 'REGULAR', 'ECHO', 'BRIDGE']);

function publishResources(resources: ResourceToPublishDto[] | undefined): PublishResource[] | undefined {
  if (!resources) return undefined;
  const unsupported = [...new Set(resources.map((r) => r.resourceType).filter((type) => type !== 'layout' && !WORKFLOW_RESOURCE_TYPES.has(type)))];
  if (unsupported.length) throw new PublishResourceTypeUnsupportedError(unsupported);
  return resources.map((r) => ({ resourceType: r.resourceType === 'layout' ? 'layout' : 'workflow', resourceId: r.resourceId }));
}

/**
 * Novu's v2 environment routes: publishing workflows and layouts from one environment to another
 * (matched by workflowId and layoutId), its diff, and the tags in use. Any API key of the organization may publish between any
 * two of its environments.
 */
@ApiTags('Environments')
@ApiCommonErrors()
@Controller({ path: 'environments', version: '2' })
export class EnvironmentPublishController {
  constructor(
    private readonly diffEnvironments: DiffEnvironments,
    private readonly publishEnvironment: PublishEnvironment,
    private readonly listTags: ListEnvironmentTags,
  ) {}

  @Post(':targetEnvironmentId/diff')
  @HttpCode(200)
  @ApiOperation({
    summary: 'What publishing would change in the target',
    description:
      'Each workflow and layout of either environment: added, modified (with the fields and steps that differ), unchanged or deleted; a workflow lists the ' +
      'layouts its email steps need in `dependencies`. Writes nothing.',
  })
  @TargetParam()
  @ApiDataResponse(DiffEnvironmentResponseDto)
  @Refusals()
  @NotFound()
  async diff(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('targetEnvironmentId') targetEnvironmentId: string,
    @Body() body: DiffEnvironmentRequestDto,
  ): Promise<DiffEnvironmentResponseDto> {
    return toDiffResponse(
      await this.diffEnvironments.execute({ organizationId: scope.organizationId, sourceEnvironmentId: body.sourceEnvironmentId, targetEnvironmentId }),
    );
  }

  @Post(':targetEnvironmentId/publish')
  @HttpCode(200)
  @ApiOperation({
    summary: "Copy the source's layouts and workflows to the target",
    description:
      'Layouts are matched by layoutId and written first, then workflows by workflowId: the new ones are created, the changed ones replaced, the target ' +
      'loses those the source has not (unless `resources` names some; a layout workflows of the target still use stays), the unchanged ones are skipped. ' +
      'The source’s default layout becomes the target’s. Publishing again with nothing changed writes nothing. `dryRun` reports what would be done.',
  })
  @TargetParam()
  @ApiDataResponse(PublishEnvironmentResponseDto)
  @Refusals()
  @NotFound()
  async publish(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('targetEnvironmentId') targetEnvironmentId: string,
    @Body() body: PublishEnvironmentRequestDto,
  ): Promise<PublishEnvironmentResponseDto> {
    const result = await this.publishEnvironment.execute({
      organizationId: scope.organizationId,
      sourceEnvironmentId: body.sourceEnvironmentId,
      targetEnvironmentId,
      by: scope.apiKeyId,
      dryRun: body.dryRun,
      resources: publishResources(body.resources),
    });
    return toPublishResponse(result);
  }

  @Get(':environmentId/tags')
  @ApiOperation({ summary: "The tags of the environment's workflows, each once" })
  @ApiParam({ name: 'environmentId', description: 'An environment of your organization', example: ENVIRONMENT_ID_EXAMPLE })
  @ApiDataResponse(EnvironmentTagDto, { isArray: true })
  @NotFound()
  async tags(@CurrentScope() scope: AuthenticatedScope, @Param('environmentId') environmentId: string): Promise<EnvironmentTagDto[]> {
    return (await this.listTags.execute({ organizationId: scope.organizationId, environmentId })).map((name) => ({ name }));
  }
}
