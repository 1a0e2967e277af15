import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { LAYOUT_EDITOR_TYPES, TRIGGER_IDENTIFIER_MAX_LENGTH, TRIGGER_IDENTIFIER_PATTERN } from '@app/workflows';
import { PreviewErrorV2Dto } from './workflow-v2.dto';

const NAME_MAX = 256;
/** A layout's body: a whole HTML email or a block editor document, so larger than a step's text. */
const BODY_MAX = 512 * 1024;
const LAYOUT_ID_EXAMPLE = 'brand';
const LAYOUT_ID_RULE = `letters, digits, "-", "_", ".", ":" (at most ${TRIGGER_IDENTIFIER_MAX_LENGTH})`;

export const LAYOUT_BODY_EXAMPLE =
  '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="background:#f4f5f7"><div style="max-width:600px;margin:0 auto;background:#ffffff;padding:24px">' +
  '<h1>Acme</h1>{{ content }}<p style="color:#8a8f98">Sent to {{ subscriber.email }}</p></div></body></html>';

export class LayoutEmailControlsDto {
  @ApiProperty({
    description:
      'The frame: a whole HTML document (`editorType: html`) or Novu’s block editor document as a JSON string (`block`), holding `{{ content }}` where an email step’s body goes. Liquid, with `subscriber` and `payload`',
    example: LAYOUT_BODY_EXAMPLE,
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(BODY_MAX)
  body: string;

  @ApiPropertyOptional({ description: 'What the body is', enum: LAYOUT_EDITOR_TYPES, default: 'block', example: 'html' })
  @IsOptional()
  @IsIn(LAYOUT_EDITOR_TYPES)
  editorType?: (typeof LAYOUT_EDITOR_TYPES)[number];
}

export class LayoutControlValuesDto {
  @ApiPropertyOptional({ description: 'The email frame', type: LayoutEmailControlsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => LayoutEmailControlsDto)
  email?: LayoutEmailControlsDto;
}

export class CreateLayoutDto {
  @ApiProperty({
    description: `Identifier email steps name the layout by (\`layoutId\`), unique in the environment: ${LAYOUT_ID_RULE}`,
    example: LAYOUT_ID_EXAMPLE,
  })
  @IsString()
  @Matches(TRIGGER_IDENTIFIER_PATTERN, { message: `layoutId may only hold ${LAYOUT_ID_RULE}` })
  @MaxLength(TRIGGER_IDENTIFIER_MAX_LENGTH)
  layoutId: string;

  @ApiProperty({ description: 'Name of the layout', example: 'Brand' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name: string;

  @ApiPropertyOptional({ description: 'Kept and shown (translations of layouts are not applied here)', default: false, example: false })
  @IsOptional()
  @IsBoolean()
  isTranslationEnabled?: boolean;

  @ApiPropertyOptional({ description: 'Where it was made (Novu’s dashboard sends `dashboard`); not used', enum: ['dashboard'], example: 'dashboard' })
  @IsOptional()
  @IsIn(['dashboard'])
  source?: string;
}

export class UpdateLayoutDto {
  @ApiProperty({ description: 'Name of the layout', example: 'Brand' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name: string;

  @ApiPropertyOptional({ description: 'Kept and shown (translations of layouts are not applied here)', example: false })
  @IsOptional()
  @IsBoolean()
  isTranslationEnabled?: boolean;

  @ApiPropertyOptional({
    description: 'The frame; left out, it stays; null clears it (an email in the layout is then its body alone)',
    type: LayoutControlValuesDto,
    nullable: true,
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => LayoutControlValuesDto)
  controlValues?: LayoutControlValuesDto | null;

  @ApiPropertyOptional({
    description:
      'This service’s addition: true makes it the environment’s default layout (the one email steps without a layoutId are sent in); false, when it is the default, leaves the environment without one',
    example: true,
  })
  @IsOptional()
  @IsBoolean()
  isDefault?: boolean;
}

export class DuplicateLayoutDto {
  @ApiProperty({ description: 'Name of the copy', example: 'Brand (winter)' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name: string;

  @ApiPropertyOptional({ description: `The copy’s layoutId; default: the slug of its name (${LAYOUT_ID_RULE})`, example: 'brand-winter' })
  @IsOptional()
  @IsString()
  @Matches(TRIGGER_IDENTIFIER_PATTERN, { message: `layoutId may only hold ${LAYOUT_ID_RULE}` })
  @MaxLength(TRIGGER_IDENTIFIER_MAX_LENGTH)
  layoutId?: string;

  @ApiPropertyOptional({ description: 'Kept and shown (translations of layouts are not applied here)', default: false, example: false })
  @IsOptional()
  @IsBoolean()
  isTranslationEnabled?: boolean;
}

export class ListLayoutsQueryDto {
  @ApiPropertyOptional({ description: 'Layouts per page', minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit = 50;

  @ApiPropertyOptional({ description: 'Layouts to skip', minimum: 0, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset = 0;

  @ApiPropertyOptional({ description: 'Sort direction', enum: ['ASC', 'DESC'], default: 'DESC' })
  @IsOptional()
  @IsIn(['ASC', 'DESC'])
  orderDirection?: 'ASC' | 'DESC';

  @ApiPropertyOptional({ description: 'Sort field', enum: ['createdAt', 'updatedAt', 'name'], default: 'createdAt' })
  @IsOptional()
  @IsIn(['createdAt', 'updatedAt', 'name'])
  orderBy?: 'createdAt' | 'updatedAt' | 'name';

  @ApiPropertyOptional({ description: 'Case-insensitive search in the name and the layoutId', example: 'brand' })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  query?: string;
}

export class LayoutPreviewPayloadDto {
  @ApiPropertyOptional({
    description: 'The subscriber fields to render with; the rest are sample values',
    example: { firstName: 'Ada', email: 'ada@example.com' },
  })
  @IsOptional()
  @IsObject()
  subscriber?: Record<string, unknown>;
}

export class LayoutPreviewRequestDto {
  @ApiPropertyOptional({
    description: 'Controls to render instead of the layout’s own (`email: {body, editorType}`)',
    example: { email: { body: LAYOUT_BODY_EXAMPLE, editorType: 'html' } },
  })
  @IsOptional()
  @IsObject()
  controlValues?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'What to render with', type: LayoutPreviewPayloadDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => LayoutPreviewPayloadDto)
  previewPayload?: LayoutPreviewPayloadDto;
}

// ---- answers ----

class LayoutEmailControlsResponseDto {
  @ApiProperty({ description: 'The frame, holding `{{ content }}`', example: LAYOUT_BODY_EXAMPLE })
  body: string;
  @ApiProperty({ description: 'What the body is', enum: LAYOUT_EDITOR_TYPES, example: 'html' })
  editorType: string;
}

class LayoutControlValuesResponseDto {
  @ApiPropertyOptional({ description: 'The email frame (absent: none stored)', type: LayoutEmailControlsResponseDto })
  email?: LayoutEmailControlsResponseDto;
}

class LayoutControlsResponseDto {
  @ApiProperty({ description: 'JSON Schema of the controls', type: 'object', additionalProperties: true })
  dataSchema: Record<string, unknown>;
  @ApiProperty({ description: 'How Novu’s editor shows the controls', type: 'object', additionalProperties: true, example: { group: 'LAYOUT' } })
  uiSchema: Record<string, unknown>;
  @ApiProperty({ description: 'The controls’ values', type: LayoutControlValuesResponseDto })
  values: LayoutControlValuesResponseDto;
}

export class LayoutResponseDto {
  @ApiProperty({ description: 'Database id', example: '66a1f0c2e4b0a1b2c3d4e5f9' })
  _id: string;
  @ApiProperty({ description: 'Identifier email steps name it by', example: LAYOUT_ID_EXAMPLE })
  layoutId: string;
  @ApiProperty({ description: 'Slug: `<name>_ly_<id>` (names the layout as its id does)', example: 'brand_ly_66a1f0c2e4b0a1b2c3d4e5f9' })
  slug: string;
  @ApiProperty({ description: 'Name', example: 'Brand' })
  name: string;
  @ApiProperty({ description: 'The environment’s default layout: email steps without a layoutId are sent in it', example: true })
  isDefault: boolean;
  @ApiProperty({ description: 'Kept and shown (translations of layouts are not applied here)', example: false })
  isTranslationEnabled: boolean;
  @ApiProperty({ description: 'Last change (ISO-8601)', example: '2025-01-01T00:00:00.000Z' })
  updatedAt: string;
  @ApiPropertyOptional({ description: 'Who changed it last (not recorded: null)', nullable: true, type: Object, example: null })
  updatedBy: null;
  @ApiProperty({ description: 'Creation (ISO-8601)', example: '2025-01-01T00:00:00.000Z' })
  createdAt: string;
  @ApiProperty({ description: 'Where it was made', enum: ['novu-cloud'], example: 'novu-cloud' })
  origin: 'novu-cloud';
  @ApiProperty({ description: 'Novu’s resource type of layouts', enum: ['BRIDGE'], example: 'BRIDGE' })
  type: 'BRIDGE';
  @ApiProperty({ description: 'JSON Schema of the variables the frame may use (subscriber, payload)', type: 'object', additionalProperties: true })
  variables: Record<string, unknown>;
  @ApiProperty({ description: 'The controls: their schema and values', type: LayoutControlsResponseDto })
  controls: LayoutControlsResponseDto;
}

export class LayoutListResponseDto {
  @ApiProperty({ description: 'One page of layouts', type: [LayoutResponseDto] })
  layouts: LayoutResponseDto[];
  @ApiProperty({ description: 'How many layouts match', example: 1 })
  totalCount: number;
}

class LayoutUsageWorkflowDto {
  @ApiProperty({ description: 'The workflow’s workflowId (trigger identifier)', example: 'order-shipped' })
  workflowId: string;
  @ApiProperty({ description: 'Workflow name', example: 'Order shipped' })
  name: string;
}

export class LayoutUsageResponseDto {
  @ApiProperty({ description: 'The live workflows whose email steps name the layout', type: [LayoutUsageWorkflowDto] })
  workflows: LayoutUsageWorkflowDto[];
}

class LayoutPreviewResultDto {
  @ApiProperty({ description: 'Always email', enum: ['email'], example: 'email' })
  type: 'email';
  @ApiPropertyOptional({
    description: 'The rendered frame: `{body}` (HTML), a sample where the step’s body goes',
    example: { body: '<!DOCTYPE html><html>…</html>' },
  })
  preview?: { body: string };
  @ApiPropertyOptional({ description: 'Why it could not be rendered (then there is no preview)', type: PreviewErrorV2Dto })
  error?: PreviewErrorV2Dto;
}

export class LayoutPreviewResponseDto {
  @ApiProperty({ description: 'What it was rendered with: the subscriber given and sample values for the rest', type: LayoutPreviewPayloadDto })
  previewPayloadExample: LayoutPreviewPayloadDto;
  @ApiProperty({ description: 'JSON Schema of the preview payload', type: 'object', additionalProperties: true })
  schema: Record<string, unknown>;
  @ApiProperty({ description: 'The rendered frame, or the error that kept it from rendering', type: LayoutPreviewResultDto })
  result: LayoutPreviewResultDto;
}
