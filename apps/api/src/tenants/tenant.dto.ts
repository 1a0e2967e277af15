import { IDENTIFIER_MAX_LENGTH } from '@app/kernel';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../http/page-query.dto';
import { IsIdentifier } from '../http/identifier';

const NAME_MAX = 256;

export class CreateTenantRequestDto {
  @ApiProperty({ description: 'Your own id for the tenant, unique in the environment', example: 'acme', maxLength: IDENTIFIER_MAX_LENGTH })
  @IsIdentifier()
  identifier: string;

  @ApiPropertyOptional({ description: 'Display name', example: 'Acme Inc.', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  name?: string | null;

  @ApiPropertyOptional({
    description: 'Any JSON object; available to templates, step filters and integration conditions as `tenant.data`',
    type: 'object',
    additionalProperties: true,
    example: { plan: 'enterprise' },
  })
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown> | null;
}

export class UpdateTenantRequestDto {
  @ApiPropertyOptional({ description: 'A new identifier; must be free in the environment', example: 'acme-corp', maxLength: IDENTIFIER_MAX_LENGTH })
  @IsOptional()
  @IsIdentifier()
  identifier?: string;

  @ApiPropertyOptional({ description: 'New display name; null removes it', example: 'Acme Corporation', nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  name?: string | null;

  @ApiPropertyOptional({
    description: 'Replaces the stored data object; null removes it',
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { plan: 'enterprise', region: 'eu' },
  })
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown> | null;
}

/** Query of GET /v1/tenants. */
export class ListTenantsQueryDto extends PageQueryDto {}

export class TenantResponseDto {
  @ApiProperty({ description: 'Internal id of the tenant', example: '6650f0a1c2b3d4e5f6a7b8c9' })
  _id: string;

  @ApiProperty({ description: 'Your own id for the tenant, unique in the environment', example: 'acme' })
  identifier: string;

  @ApiPropertyOptional({ description: 'Display name; absent when never set', example: 'Acme Inc.' })
  name?: string;

  @ApiPropertyOptional({ description: 'Custom data object; absent when never set', type: 'object', additionalProperties: true })
  data?: Record<string, unknown>;

  @ApiProperty({ description: 'Environment the tenant belongs to' })
  _environmentId: string;

  @ApiProperty({ description: 'Creation time (ISO-8601)', example: '2025-01-01T00:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ description: 'Last change (ISO-8601)', example: '2025-01-01T00:00:00.000Z' })
  updatedAt: string;
}

export class TenantListResponseDto {
  @ApiProperty({ description: 'Tenants of this page, oldest first', type: [TenantResponseDto] })
  data: TenantResponseDto[];

  @ApiProperty({ description: 'The page returned (0-based)', example: 0 })
  page: number;

  @ApiProperty({ description: 'The page size asked for', example: 10 })
  pageSize: number;

  @ApiProperty({ description: 'Whether a further page exists' })
  hasMore: boolean;
}
