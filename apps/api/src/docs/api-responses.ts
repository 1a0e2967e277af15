import { Type, applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiResponse, getSchemaPath } from '@nestjs/swagger';

/** Documents a `{ data: Model }` (or `{ data: Model[] }`) success body, the envelope every route uses. */
export function ApiDataResponse(model: Type<unknown>, options: { status?: number; isArray?: boolean; description?: string } = {}) {
  const item = { $ref: getSchemaPath(model) };
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status: options.status ?? 200,
      description: options.description ?? 'Success',
      schema: {
        type: 'object',
        required: ['data'],
        properties: { data: options.isArray ? { type: 'array', items: item } : item },
      },
    }),
  );
}

export class ErrorResponseDto {
  @ApiProperty({ description: 'HTTP status code', example: 404 })
  statusCode: number;
  @ApiProperty({ description: 'When the error happened (ISO-8601)' })
  timestamp: string;
  @ApiProperty({ description: 'Request path, query string included' })
  path: string;
  @ApiProperty({ description: 'What went wrong', oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] })
  message: string | string[];
  @ApiProperty({ description: 'HTTP reason phrase', required: false })
  error?: string;
  @ApiProperty({ description: 'Stable machine-readable error code', required: false })
  code?: string;
  @ApiProperty({ description: 'Present on 500s; also written to the log', required: false })
  errorId?: string;
}

export class ValidationErrorResponseDto extends ErrorResponseDto {
  @ApiProperty({
    description: 'Per-field problems, keyed by field path',
    example: { name: { messages: ['name must be a string'], value: 3 } },
  })
  errors: Record<string, { messages: string[]; value: unknown }>;
}

/** The error bodies every authenticated route can answer with. */
export function ApiCommonErrors() {
  return applyDecorators(
    ApiExtraModels(ErrorResponseDto, ValidationErrorResponseDto),
    ApiResponse({ status: 401, description: 'Missing or invalid API key', type: ErrorResponseDto }),
    ApiResponse({ status: 409, description: 'Idempotency-Key is in use by a request still running', type: ErrorResponseDto }),
    ApiResponse({ status: 413, description: 'Request body too large', type: ErrorResponseDto }),
    ApiResponse({ status: 422, description: 'Validation failed, or Idempotency-Key reused with another body', type: ValidationErrorResponseDto }),
  );
}
