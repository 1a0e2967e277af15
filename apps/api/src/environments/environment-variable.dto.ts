import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayUnique, IsArray, IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import {
  ENVIRONMENT_VARIABLE_KEY_MAX_LENGTH,
  ENVIRONMENT_VARIABLE_KEY_PATTERN,
  ENVIRONMENT_VARIABLE_TYPES,
  ENVIRONMENT_VARIABLE_VALUE_MAX_LENGTH,
  EnvironmentVariableType,
} from '@app/environments';

const KEY_RULE = 'Key must start with a letter and contain only letters, digits, and underscores';
const SECRET_NOTE = 'sending back the mask a secret is shown as (`••••••••`) is refused (400), so a masked value never replaces the secret';

export class EnvironmentVariableValueDto {
  @ApiProperty({
    description: "Id of the environment: your API key's own (an API key sets its own environment's value only)",
    example: '6650f0a1c2b3d4e5f6a7b8c9',
  })
  @IsString()
  _environmentId: string;

  @ApiProperty({
    description: `The value in that environment (at most ${ENVIRONMENT_VARIABLE_VALUE_MAX_LENGTH} characters); ${SECRET_NOTE}`,
    example: 'https://support.example.com',
  })
  @IsString()
  @MaxLength(ENVIRONMENT_VARIABLE_VALUE_MAX_LENGTH)
  value: string;
}

const keyProperty = {
  description: `Unique key in the organization, read as \`{{env.KEY}}\`. ${KEY_RULE} (at most ${ENVIRONMENT_VARIABLE_KEY_MAX_LENGTH} characters)`,
  example: 'SUPPORT_URL',
  pattern: ENVIRONMENT_VARIABLE_KEY_PATTERN.source,
};

export class CreateEnvironmentVariableRequestDto {
  @ApiProperty(keyProperty)
  @IsString()
  @MaxLength(ENVIRONMENT_VARIABLE_KEY_MAX_LENGTH)
  @Matches(ENVIRONMENT_VARIABLE_KEY_PATTERN, { message: KEY_RULE })
  key: string;

  @ApiPropertyOptional({ description: 'The type of the variable', enum: ENVIRONMENT_VARIABLE_TYPES, default: 'string', example: 'string' })
  @IsOptional()
  @IsIn(ENVIRONMENT_VARIABLE_TYPES)
  type?: EnvironmentVariableType;

  @ApiPropertyOptional({
    description: 'A secret: masked in every answer, in previews and in message content; only an HTTP request step sends its value out',
    default: false,
    example: false,
  })
  @IsOptional()
  @IsBoolean()
  isSecret?: boolean;

  @ApiPropertyOptional({ description: 'Its value per environment', type: [EnvironmentVariableValueDto] })
  @IsOptional()
  @IsArray()
  @ArrayUnique((value: EnvironmentVariableValueDto) => value._environmentId, { message: 'Duplicate _environmentId in values' })
  @ValidateNested({ each: true })
  @Type(() => EnvironmentVariableValueDto)
  values?: EnvironmentVariableValueDto[];
}

export class UpdateEnvironmentVariableRequestDto {
  @ApiPropertyOptional({ ...keyProperty, description: `A new key (renames the variable; must be free). ${KEY_RULE}`, example: 'HELP_URL' })
  @IsOptional()
  @IsString()
  @MaxLength(ENVIRONMENT_VARIABLE_KEY_MAX_LENGTH)
  @Matches(ENVIRONMENT_VARIABLE_KEY_PATTERN, { message: KEY_RULE })
  key?: string;

  @ApiPropertyOptional({ description: 'The type of the variable', enum: ENVIRONMENT_VARIABLE_TYPES, example: 'string' })
  @IsOptional()
  @IsIn(ENVIRONMENT_VARIABLE_TYPES)
  type?: EnvironmentVariableType;

  @ApiPropertyOptional({ description: 'Make the variable a secret, or not', example: false })
  @IsOptional()
  @IsBoolean()
  isSecret?: boolean;

  @ApiPropertyOptional({
    description: 'Values merged into the stored ones by environment: environments left out keep theirs',
    type: [EnvironmentVariableValueDto],
  })
  @IsOptional()
  @IsArray()
  @ArrayUnique((value: EnvironmentVariableValueDto) => value._environmentId, { message: 'Duplicate _environmentId in values' })
  @ValidateNested({ each: true })
  @Type(() => EnvironmentVariableValueDto)
  values?: EnvironmentVariableValueDto[];
}

export class ListEnvironmentVariablesQueryDto {
  @ApiPropertyOptional({ description: 'Only variables whose key holds this (case-insensitive)', example: 'URL' })
  @IsOptional()
  @IsString()
  search?: string;
}

export class EnvironmentVariableValueResponseDto {
  @ApiProperty({ description: 'Id of the environment', example: '6650f0a1c2b3d4e5f6a7b8c9' })
  _environmentId: string;

  @ApiProperty({ description: 'The value there; `••••••••` for a secret', example: 'https://support.example.com' })
  value: string;
}

export class EnvironmentVariableResponseDto {
  @ApiProperty({ description: 'Internal id of the variable', example: '6650f0a1c2b3d4e5f6a7b8d0' })
  _id: string;

  @ApiProperty({ description: 'The organization the variable belongs to', example: '6650f0a1c2b3d4e5f6a7b8c1' })
  _organizationId: string;

  @ApiProperty({ description: 'The key, read as `{{env.KEY}}`', example: 'SUPPORT_URL' })
  key: string;

  @ApiProperty({ description: 'The type of the variable', enum: ENVIRONMENT_VARIABLE_TYPES, example: 'string' })
  type: EnvironmentVariableType;

  @ApiProperty({ description: 'Whether its values are secret (answered masked)', example: false })
  isSecret: boolean;

  @ApiProperty({ description: "Its value in the API key's environment, when it has one", type: [EnvironmentVariableValueResponseDto] })
  values: EnvironmentVariableValueResponseDto[];

  @ApiProperty({ description: 'Creation time (ISO-8601)', example: '2025-01-01T00:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ description: 'Last change (ISO-8601)', example: '2025-01-01T00:00:00.000Z' })
  updatedAt: string;
}

export class EnvironmentVariableWorkflowDto {
  @ApiProperty({ description: 'The name of the workflow', example: 'Order shipped' })
  name: string;

  @ApiProperty({ description: 'The workflowId (trigger identifier) of the workflow', example: 'order-shipped' })
  workflowId: string;
}

export class EnvironmentVariableUsageResponseDto {
  @ApiProperty({ description: 'The workflows of the organization that read the variable, each workflowId once', type: [EnvironmentVariableWorkflowDto] })
  workflows: EnvironmentVariableWorkflowDto[];
}
