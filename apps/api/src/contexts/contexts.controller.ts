import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, applyDecorators } from '@nestjs/common';
import { ApiConflictResponse, ApiHeader, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Context, CreateContext, DeleteContext, GetContext, ListContexts, UpdateContext } from '@app/contexts';
import { AuthenticatedScope } from '@app/environments';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { cursorRequest, toCursorPageResponse } from '../http/cursor-query.dto';
import { RawResponse } from '../http/envelope.interceptor';
import { ContextListResponseDto, ContextResponseDto, CreateContextRequestDto, ListContextsQueryDto, UpdateContextRequestDto } from './context.dto';

const IdempotencyKeyHeader = () =>
  ApiHeader({ name: 'idempotency-key', required: false, description: 'Makes a retry of this request safe: replayed for 24 h' });
const ContextParams = () =>
  applyDecorators(
    ApiParam({ name: 'type', description: 'Context type', example: 'tenant' }),
    ApiParam({ name: 'id', description: 'Context id', example: 'acme' }),
    ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No context of that type and id in the environment' }),
  );

function toResponse(context: Context): ContextResponseDto {
  return {
    type: context.type,
    id: context.identifier,
    data: context.data,
    createdAt: context.createdAt.toISOString(),
    updatedAt: context.updatedAt.toISOString(),
  };
}

/**
 * Novu's contexts (v2): what a notification is sent within (a tenant, an app, a workspace), by type
 * and id in the environment, with data templates and conditions read as `context.<type>.data`.
 * A trigger's `context` creates the ones it names; these routes manage them directly.
 */
@ApiTags('Contexts')
@ApiCommonErrors()
@Controller({ path: 'contexts', version: '2' })
export class ContextsController {
  constructor(
    private readonly createContext: CreateContext,
    private readonly getContext: GetContext,
    private readonly listContexts: ListContexts,
    private readonly updateContext: UpdateContext,
    private readonly deleteContext: DeleteContext,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a context', description: 'By type and id (409 when the environment has it already), with optional data.' })
  @IdempotencyKeyHeader()
  @ApiDataResponse(ContextResponseDto, { status: 201, description: 'The created context' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The context exists already (`context_exists`)' })
  async create(@CurrentScope() scope: AuthenticatedScope, @Body() body: CreateContextRequestDto): Promise<ContextResponseDto> {
    return toResponse(await this.createContext.execute({ scope, type: body.type, identifier: body.id, data: body.data }));
  }

  @Get()
  @RawResponse()
  @ApiOperation({ summary: 'List the contexts of the environment', description: 'Cursor pages; filtered by `id`, or by `search` within the key `type:id`.' })
  @ApiOkResponse({ type: ContextListResponseDto, description: 'One page' })
  async list(@CurrentScope() scope: AuthenticatedScope, @Query() query: ListContextsQueryDto): Promise<ContextListResponseDto> {
    const page = await this.listContexts.execute(scope, {
      ...cursorRequest(query),
      ...(query.id !== undefined ? { identifier: query.id } : {}),
      ...(query.search ? { search: query.search } : {}),
    });
    return toCursorPageResponse(page, toResponse);
  }

  @Get(':type/:id')
  @ApiOperation({ summary: 'Get a context by type and id' })
  @ContextParams()
  @ApiDataResponse(ContextResponseDto)
  async get(@CurrentScope() scope: AuthenticatedScope, @Param('type') type: string, @Param('id') id: string): Promise<ContextResponseDto> {
    return toResponse(await this.getContext.execute(scope, type, id));
  }

  @Patch(':type/:id')
  @ApiOperation({ summary: "Replace a context's data" })
  @ContextParams()
  @IdempotencyKeyHeader()
  @ApiDataResponse(ContextResponseDto, { description: 'The context after the change' })
  async update(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('type') type: string,
    @Param('id') id: string,
    @Body() body: UpdateContextRequestDto,
  ): Promise<ContextResponseDto> {
    return toResponse(await this.updateContext.execute({ scope, type, identifier: id, data: body.data }));
  }

  @Delete(':type/:id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a context', description: 'Notifications sent within it keep its key.' })
  @ContextParams()
  @ApiNoContentResponse({ description: 'Deleted' })
  async remove(@CurrentScope() scope: AuthenticatedScope, @Param('type') type: string, @Param('id') id: string): Promise<void> {
    await this.deleteContext.execute(scope, type, id);
  }
}
