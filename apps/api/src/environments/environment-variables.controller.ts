import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import {
  AuthenticatedScope,
  CreateEnvironmentVariable,
  DeleteEnvironmentVariable,
  EnvironmentVariable,
  GetEnvironmentVariable,
  ListEnvironmentVariables,
  UpdateEnvironmentVariable,
} from '@app/environments';
import { GetEnvironmentVariableUsage } from '@app/workflows';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import {
  CreateEnvironmentVariableRequestDto,
  EnvironmentVariableResponseDto,
  EnvironmentVariableUsageResponseDto,
  EnvironmentVariableValueDto,
  ListEnvironmentVariablesQueryDto,
  UpdateEnvironmentVariableRequestDto,
} from './environment-variable.dto';

const KeyParam = () => ApiParam({ name: 'variableKey', description: 'The unique key of the environment variable', example: 'SUPPORT_URL' });
const NotFound = () => ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No variable with that key in your organization' });
const OtherEnvironment = () =>
  ApiForbiddenResponse({
    type: ErrorResponseDto,
    description: "A value for an environment other than the API key's (`environment_variable_other_environment`)",
  });

function toResponse(variable: EnvironmentVariable): EnvironmentVariableResponseDto {
  return {
    _id: variable.id,
    _organizationId: variable.organizationId,
    key: variable.key,
    type: variable.type,
    isSecret: variable.isSecret,
    values: Object.entries(variable.values).map(([environmentId, value]) => ({ _environmentId: environmentId, value })),
    createdAt: variable.createdAt.toISOString(),
    updatedAt: variable.updatedAt.toISOString(),
  };
}

const valuesOf = (values: EnvironmentVariableValueDto[] | undefined) => values?.map(({ _environmentId, value }) => ({ environmentId: _environmentId, value }));

/**
 * Novu's environment variables: keys of the organization with a value per environment, read by
 * templates, URLs and conditions as `{{env.KEY}}`. An API key sees and sets its own environment's
 * value; secret values are answered masked.
 */
@ApiTags('Environment Variables')
@ApiCommonErrors()
@Controller({ path: 'environment-variables', version: '1' })
export class EnvironmentVariablesController {
  constructor(
    private readonly createVariable: CreateEnvironmentVariable,
    private readonly listVariables: ListEnvironmentVariables,
    private readonly getVariable: GetEnvironmentVariable,
    private readonly updateVariable: UpdateEnvironmentVariable,
    private readonly deleteVariable: DeleteEnvironmentVariable,
    private readonly usage: GetEnvironmentVariableUsage,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List the variables of your organization',
    description: "Newest first, each with the API key's environment's value (secrets masked).",
  })
  @ApiDataResponse(EnvironmentVariableResponseDto, { isArray: true })
  async list(@CurrentScope() scope: AuthenticatedScope, @Query() query: ListEnvironmentVariablesQueryDto): Promise<EnvironmentVariableResponseDto[]> {
    return (await this.listVariables.execute(scope, query.search)).map(toResponse);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a variable',
    description: "With a value for the API key's environment, if given. Secret values are encrypted at rest and answered masked.",
  })
  @ApiDataResponse(EnvironmentVariableResponseDto, { description: 'The created variable (200, as Novu answers)' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The organization has a variable with that key (`environment_variable_key_taken`)' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'A value equal to the secret mask (`environment_variable_mask_value`)' })
  @OtherEnvironment()
  async create(@CurrentScope() scope: AuthenticatedScope, @Body() body: CreateEnvironmentVariableRequestDto): Promise<EnvironmentVariableResponseDto> {
    const { key, type, isSecret, values } = body;
    return toResponse(await this.createVariable.execute({ caller: scope, key, type, isSecret, values: valuesOf(values) }));
  }

  @Get(':variableKey/usage')
  @ApiOperation({
    summary: 'The workflows that read a variable',
    description: '`{{env.KEY}}` (or `env.KEY` in a condition) in any step of any environment of the organization.',
  })
  @KeyParam()
  @ApiDataResponse(EnvironmentVariableUsageResponseDto)
  @NotFound()
  async usageOf(@CurrentScope() scope: AuthenticatedScope, @Param('variableKey') key: string): Promise<EnvironmentVariableUsageResponseDto> {
    return { workflows: await this.usage.execute(scope.organizationId, key) };
  }

  @Get(':variableKey')
  @ApiOperation({ summary: 'Get a variable by its key', description: "With the API key's environment's value (a secret masked)." })
  @KeyParam()
  @ApiDataResponse(EnvironmentVariableResponseDto)
  @NotFound()
  async get(@CurrentScope() scope: AuthenticatedScope, @Param('variableKey') key: string): Promise<EnvironmentVariableResponseDto> {
    return toResponse(await this.getVariable.execute(scope, key));
  }

  @Patch(':variableKey')
  @ApiOperation({
    summary: 'Change a variable',
    description: 'The fields given: a new key, the type, whether it is secret, and values merged by environment (the others keep theirs).',
  })
  @KeyParam()
  @ApiDataResponse(EnvironmentVariableResponseDto, { description: 'The variable after the change' })
  @NotFound()
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The new key is taken (`environment_variable_key_taken`)' })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'Nothing to change (`environment_variable_no_changes`), or a value equal to the secret mask (`environment_variable_mask_value`)',
  })
  @OtherEnvironment()
  async update(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('variableKey') key: string,
    @Body() body: UpdateEnvironmentVariableRequestDto,
  ): Promise<EnvironmentVariableResponseDto> {
    const changes = { key: body.key, type: body.type, isSecret: body.isSecret, values: valuesOf(body.values) };
    return toResponse(await this.updateVariable.execute({ caller: scope, key, changes }));
  }

  @Delete(':variableKey')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a variable', description: 'With its value in every environment.' })
  @KeyParam()
  @ApiNoContentResponse({ description: 'Deleted' })
  @NotFound()
  async remove(@CurrentScope() scope: AuthenticatedScope, @Param('variableKey') key: string): Promise<void> {
    await this.deleteVariable.execute(scope.organizationId, key);
  }
}
