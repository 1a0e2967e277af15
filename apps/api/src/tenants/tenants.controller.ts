import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { CreateTenant, DeleteTenant, GetTenant, ListTenants, UpdateTenant } from '@app/tenants';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';
import { toTenantResponse } from './tenant.mapper';
import { CreateTenantRequestDto, ListTenantsQueryDto, TenantListResponseDto, TenantResponseDto, UpdateTenantRequestDto } from './tenant.dto';

const IdentifierParam = () => ApiParam({ name: 'identifier', description: 'The tenant identifier', example: 'acme' });
const IdempotencyKeyHeader = () =>
  ApiHeader({ name: 'idempotency-key', required: false, description: 'Makes a retry of this request safe: replayed for 24 h' });

@ApiTags('Tenants')
@ApiCommonErrors()
@Controller({ path: 'tenants', version: '1' })
export class TenantsController {
  constructor(
    private readonly createTenant: CreateTenant,
    private readonly getTenant: GetTenant,
    private readonly listTenants: ListTenants,
    private readonly updateTenant: UpdateTenant,
    private readonly deleteTenant: DeleteTenant,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a tenant (409 when the identifier is taken)' })
  @IdempotencyKeyHeader()
  @ApiDataResponse(TenantResponseDto, { status: 201, description: 'The created tenant' })
  async create(@CurrentScope() scope: AuthenticatedScope, @Body() body: CreateTenantRequestDto): Promise<TenantResponseDto> {
    const { identifier, name, data } = body;
    // null means "not given" on create, so it never reaches the wire as null.
    return toTenantResponse(await this.createTenant.execute({ scope, identifier, name: name ?? undefined, data: data ?? undefined }));
  }

  @Get()
  @RawResponse()
  @ApiOperation({ summary: 'List the tenants of the environment, page by page' })
  @ApiOkResponse({ type: TenantListResponseDto, description: 'One page of tenants' })
  async list(@CurrentScope() scope: AuthenticatedScope, @Query() query: ListTenantsQueryDto): Promise<TenantListResponseDto> {
    const { items, hasMore } = await this.listTenants.execute({ scope, page: query.page, limit: query.limit });
    return { data: items.map(toTenantResponse), page: query.page, pageSize: query.limit, hasMore };
  }

  @Get(':identifier')
  @ApiOperation({ summary: 'Get a tenant by its identifier' })
  @IdentifierParam()
  @ApiDataResponse(TenantResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No tenant with that identifier' })
  async get(@CurrentScope() scope: AuthenticatedScope, @Param('identifier') identifier: string): Promise<TenantResponseDto> {
    return toTenantResponse(await this.getTenant.execute({ scope, identifier }));
  }

  @Patch(':identifier')
  @ApiOperation({ summary: 'Change the identifier, name or data of a tenant (fields left out stay as they are)' })
  @IdentifierParam()
  @IdempotencyKeyHeader()
  @ApiDataResponse(TenantResponseDto, { description: 'The tenant after the change' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No tenant with that identifier' })
  async update(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('identifier') identifier: string,
    @Body() body: UpdateTenantRequestDto,
  ): Promise<TenantResponseDto> {
    const changes = {
      ...(body.identifier != null ? { identifier: body.identifier } : {}),
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.data !== undefined ? { data: body.data } : {}),
    };
    return toTenantResponse(await this.updateTenant.execute({ scope, identifier, changes }));
  }

  @Delete(':identifier')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a tenant' })
  @IdentifierParam()
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No tenant with that identifier' })
  async remove(@CurrentScope() scope: AuthenticatedScope, @Param('identifier') identifier: string): Promise<void> {
    await this.deleteTenant.execute({ scope, identifier });
  }
}
