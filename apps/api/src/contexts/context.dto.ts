import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, Matches, ValidateBy, ValidationOptions, buildMessage } from 'class-validator';
import { CONTEXT_DATA_MAX_BYTES, CONTEXT_IDENTIFIER_PATTERN, contextDataProblem } from '@app/contexts';
import { ORDER_BY_VALUES, cursorQueryDto } from '../http/cursor-query.dto';

const IDENTIFIER_RULE = 'must be 1 to 100 letters, digits, "-" or "_"';

/** Context data within Novu's size limit. */
function IsContextData(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isContextData',
      validator: {
        validate: (value) => contextDataProblem(value) === undefined,
        defaultMessage: buildMessage((prefix, args) => `${prefix}${args?.property} ${contextDataProblem(args?.value)?.replace(/^data /, '')}`, options),
      },
    },
    options,
  );
}

const dataProperty = {
  type: 'object',
  additionalProperties: true,
  example: { name: 'Acme Corp', plan: 'pro', region: 'eu' },
} as const;

export class CreateContextRequestDto {
  @ApiProperty({ description: `Context type (e.g. tenant, app, workspace): ${IDENTIFIER_RULE}`, example: 'tenant', pattern: CONTEXT_IDENTIFIER_PATTERN.source })
  @IsString()
  @Matches(CONTEXT_IDENTIFIER_PATTERN, { message: `type ${IDENTIFIER_RULE}` })
  type: string;

  @ApiProperty({
    description: `Id of the context, unique per type in the environment: ${IDENTIFIER_RULE}`,
    example: 'acme',
    pattern: CONTEXT_IDENTIFIER_PATTERN.source,
  })
  @IsString()
  @Matches(CONTEXT_IDENTIFIER_PATTERN, { message: `id ${IDENTIFIER_RULE}` })
  id: string;

  @ApiPropertyOptional({
    ...dataProperty,
    description: `Custom data (default \`{}\`), read as \`context.<type>.data\`; at most ${CONTEXT_DATA_MAX_BYTES / 1024} KB as JSON`,
  })
  @IsOptional()
  @IsObject()
  @IsContextData()
  data?: Record<string, unknown>;
}

export class UpdateContextRequestDto {
  @ApiProperty({ ...dataProperty, description: `Replaces the context's data; at most ${CONTEXT_DATA_MAX_BYTES / 1024} KB as JSON` })
  @IsObject()
  @IsContextData()
  data: Record<string, unknown>;
}

export class ListContextsQueryDto extends cursorQueryDto(ORDER_BY_VALUES) {
  @ApiPropertyOptional({ description: 'Only contexts with this id (of any type)', example: 'acme' })
  @IsOptional()
  @IsString()
  id?: string;

  @ApiPropertyOptional({ description: 'Only contexts whose key (`type:id`) holds this (case-insensitive)', example: 'tenant:' })
  @IsOptional()
  @IsString()
  search?: string;
}

export class ContextResponseDto {
  @ApiProperty({ description: 'Context type', example: 'tenant' })
  type: string;

  @ApiProperty({ description: 'Id of the context', example: 'acme' })
  id: string;

  @ApiProperty({ ...dataProperty, description: 'Custom data' })
  data: Record<string, unknown>;

  @ApiProperty({ description: 'Creation time (ISO-8601)', example: '2025-01-01T00:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ description: 'Last change (ISO-8601)', example: '2025-01-01T00:00:00.000Z' })
  updatedAt: string;
}

export class ContextListResponseDto {
  @ApiProperty({ description: 'Contexts of this page', type: [ContextResponseDto] })
  data: ContextResponseDto[];

  @ApiProperty({ description: 'Cursor of the next page (pass as `after`), or null', type: String, nullable: true, example: null })
  next: string | null;

  @ApiProperty({ description: 'Cursor of the previous page (pass as `before`), or null', type: String, nullable: true, example: null })
  previous: string | null;

  @ApiProperty({ description: 'How many contexts match (at most 50,000)', example: 1 })
  totalCount: number;

  @ApiProperty({ description: 'Whether more than 50,000 match', example: false })
  totalCountCapped: boolean;
}
