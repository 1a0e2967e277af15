import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope, CreateApiKey, CreateEnvironment, DeleteEnvironment, GetEnvironment, ListEnvironments, UpdateEnvironment } from '@app/environments';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { IdempotencyReplayOmits } from '../http/idempotency.interceptor';
import { CreateEnvironmentRequestDto, EnvironmentResponseDto, UpdateEnvironmentRequestDto } from './environment.dto';
import { toEnvironmentResponse } from './environment.mapper';

const EnvironmentIdParam = () =>
  ApiParam({ name: 'environmentId', description: 'Id of an environment of your organization', example: '6650f0a1c2b3d4e5f6a7b8c9' });
const NotFound = () => ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No environment with that id in your organization' });

/**
 * Novu's v1 environment routes. Any API key of the organization manages every environment of it, as
 * Novu's keys do; the environment a key belongs to is the one its other routes work in.
 */
@ApiTags('Environments')
@ApiCommonErrors()
@Controller({ path: 'environments', version: '1' })
export class EnvironmentsController {
  constructor(
    private readonly getEnvironment: GetEnvironment,
    private readonly listEnvironments: ListEnvironments,
    private readonly createEnvironment: CreateEnvironment,
    private readonly createApiKey: CreateApiKey,
    private readonly updateEnvironment: UpdateEnvironment,
    private readonly deleteEnvironment: DeleteEnvironment,
  ) {}

  @Get('me')
  @ApiOperation({ summary: "The API key's environment", description: "Its identifier is what Novu's Inbox clients take as applicationIdentifier." })
  @ApiDataResponse(EnvironmentResponseDto)
  async me(@CurrentScope() scope: AuthenticatedScope): Promise<EnvironmentResponseDto> {
    return toEnvironmentResponse(await this.getEnvironment.execute(scope.environmentId));
  }

  @Get()
  @ApiOperation({ summary: 'The environments of your organization', description: 'Without their API keys (only their hashes are kept).' })
  @ApiDataResponse(EnvironmentResponseDto, { isArray: true })
  async list(@CurrentScope() scope: AuthenticatedScope): Promise<EnvironmentResponseDto[]> {
    return (await this.listEnvironments.execute(scope.organizationId)).map(({ environment }) => toEnvironmentResponse(environment));
  }

  @Post()
  @ApiOperation({
    summary: 'Create an environment',
    description:
      'With an API key (answered once, in `apiKeys`) and its in-app (Novu) integration, as the first environment has. `parentId` defaults to the Development environment.',
  })
  @IdempotencyReplayOmits('apiKeys')
  @ApiDataResponse(EnvironmentResponseDto, {
    status: 201,
    description: 'The created environment and its key (a replay of the request answers without the key)',
  })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The organization has an environment of that name (`environment_name_taken`)' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'parentId is not an environment of the organization (`environment_parent_invalid`)' })
  async create(@CurrentScope() scope: AuthenticatedScope, @Body() body: CreateEnvironmentRequestDto): Promise<EnvironmentResponseDto> {
    const environment = await this.createEnvironment.execute({
      organizationId: scope.organizationId,
      name: body.name,
      color: body.color,
      parentId: body.parentId,
    });
    const { secret } = await this.createApiKey.execute({ environmentId: environment.id });
    return { ...toEnvironmentResponse(environment), apiKeys: [{ key: secret, _userId: scope.apiKeyId }] };
  }

  @Put(':environmentId')
  @ApiOperation({ summary: 'Change the name, colour or parent of an environment (fields left out stay as they are)' })
  @EnvironmentIdParam()
  @ApiDataResponse(EnvironmentResponseDto, { description: 'The environment after the change' })
  @NotFound()
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The name is taken (`environment_name_taken`)' })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'An invalid parent (`environment_parent_invalid`), or a new name for Development (`environment_development_rename`)',
  })
  async update(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('environmentId') environmentId: string,
    @Body() body: UpdateEnvironmentRequestDto,
  ): Promise<EnvironmentResponseDto> {
    const changes = { name: body.name, color: body.color, parentId: body.parentId };
    return toEnvironmentResponse(await this.updateEnvironment.execute({ organizationId: scope.organizationId, environmentId, changes }));
  }

  @Delete(':environmentId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Delete an environment and everything in it',
    description:
      'Its API keys stop working at once; then every record of it (subscribers, workflows, messages, integrations, webhooks…) is removed. ' +
      'Refused (400) for the environment of the calling key (`environment_delete_own`), for Development (`environment_delete_development`) and for the last one (`environment_delete_last`).',
  })
  @EnvironmentIdParam()
  @ApiOkResponse({ description: 'Deleted (no body)' })
  @NotFound()
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'The deletion is refused; `code` says why' })
  async remove(@CurrentScope() scope: AuthenticatedScope, @Param('environmentId') environmentId: string): Promise<void> {
    await this.deleteEnvironment.execute({ organizationId: scope.organizationId, callerEnvironmentId: scope.environmentId, environmentId });
  }
}
