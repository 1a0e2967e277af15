import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { TRANSLATION_RESOURCE_TYPES, TranslationResourceType } from '@app/workflows';

const LOCALE_MAX = 35;
const REFERENCE_MAX = 256;

const CONTENT_EXAMPLE = {
  greeting: 'Hallo {{ subscriber.firstName }}',
  email: { subject: 'Willkommen' },
  cart: { items_one: 'ein Artikel', items_other: '{{ count }} Artikel' },
};

export class CreateTranslationDto {
  @ApiProperty({ description: 'The workflow’s workflowId (or internal id, or slug), or the layout’s layoutId', example: 'welcome' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(REFERENCE_MAX)
  resourceId: string;

  @ApiProperty({ description: 'What the texts translate', enum: TRANSLATION_RESOURCE_TYPES, example: 'workflow' })
  @IsIn(TRANSLATION_RESOURCE_TYPES)
  resourceType: TranslationResourceType;

  @ApiProperty({ description: 'Locale: a language, optionally a script and a region (`de_DE`, `de`, `zh_Hans_CN`; `-` may stand for `_`)', example: 'de_DE' })
  @IsString()
  @MaxLength(LOCALE_MAX)
  locale: string;

  @ApiProperty({
    description:
      'Keys to texts, nested or flat with dots; a text may hold Liquid (`{{ payload.x }}`) and a key plural forms (`_one`, `_other`, …). Replaces the locale’s texts whole.',
    type: 'object',
    additionalProperties: true,
    example: CONTENT_EXAMPLE,
  })
  @IsObject()
  content: Record<string, unknown>;
}

/** The resource a translation belongs to, as answers name it. */
class TranslatedResourceDto {
  @ApiProperty({ description: 'The workflow’s workflowId, or the layout’s layoutId', example: 'welcome' })
  resourceId: string;

  @ApiProperty({ description: 'What the texts translate', enum: TRANSLATION_RESOURCE_TYPES, example: 'workflow' })
  resourceType: TranslationResourceType;
}

export class TranslationResponseDto extends TranslatedResourceDto {
  @ApiProperty({ description: 'Locale', example: 'de_DE' })
  locale: string;

  @ApiProperty({ description: 'Keys to texts', type: 'object', additionalProperties: true, example: CONTENT_EXAMPLE })
  content: Record<string, unknown>;

  @ApiProperty({ description: 'Creation time (ISO-8601)', example: '2025-01-01T00:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ description: 'Last change (ISO-8601)', example: '2025-01-01T00:00:00.000Z' })
  updatedAt: string;
}

export class TranslationGroupResponseDto extends TranslatedResourceDto {
  @ApiProperty({ description: 'The workflow’s name (a layout: its layoutId)', example: 'Welcome' })
  resourceName: string;

  @ApiProperty({ description: 'Locales with a translation', type: [String], example: ['de_DE', 'en_US'] })
  locales: string[];

  @ApiPropertyOptional({
    description: 'Target locales with no translation, lacking a key of the default locale, or older than it (only present when there is one)',
    type: [String],
    example: ['fr_FR'],
  })
  outdatedLocales?: string[];

  @ApiProperty({ description: 'Creation time of the first translation (ISO-8601)', example: '2025-01-01T00:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ description: 'Last change of any translation (ISO-8601)', example: '2025-01-02T00:00:00.000Z' })
  updatedAt: string;
}

export class UploadTranslationsResponseDto {
  @ApiProperty({ description: 'Files in the form', example: 2 })
  totalFiles: number;

  @ApiProperty({ description: 'Files stored, each as its locale’s texts', example: 1 })
  successfulUploads: number;

  @ApiProperty({ description: 'Files not stored (see `errors`)', example: 1 })
  failedUploads: number;

  @ApiProperty({ description: 'One line per file not stored', type: [String], example: ["Failed to process file 'fr_FR.json': it is not JSON"] })
  errors: string[];
}

export class UploadTranslationsRequestDto {
  @ApiProperty({ description: 'The workflow’s workflowId (or internal id, or slug), or the layout’s layoutId', example: 'welcome' })
  resourceId: string;

  @ApiProperty({ description: 'What the texts translate', enum: TRANSLATION_RESOURCE_TYPES, example: 'workflow' })
  resourceType: string;

  @ApiProperty({
    description: 'JSON files named `<locale>.json` (`de_DE.json`); the field may be `files` or `files[]`',
    type: 'array',
    items: { type: 'string', format: 'binary' },
  })
  files: unknown[];
}

export class UploadMasterJsonRequestDto {
  @ApiProperty({ description: 'The master JSON, named `<locale>.json` for the locale it holds (`fr_FR.json`)', type: 'string', format: 'binary' })
  file: unknown;
}

const MASTER_EXAMPLE = { workflows: { welcome: { greeting: 'Bonjour {{ subscriber.firstName }}' } }, layouts: {} };

export class ImportMasterJsonDto {
  @ApiProperty({ description: 'The locale of every text in the file', example: 'fr_FR' })
  @IsString()
  @MaxLength(LOCALE_MAX)
  locale: string;

  @ApiProperty({
    description: '`workflows` (by workflowId) and `layouts` (by layoutId), each holding the resource’s texts in the locale',
    type: 'object',
    additionalProperties: true,
    example: MASTER_EXAMPLE,
  })
  @IsObject()
  masterJson: Record<string, unknown>;
}

export class ImportMasterJsonResponseDto {
  @ApiProperty({ description: 'Whether any resource was imported', example: true })
  success: boolean;

  @ApiProperty({ description: 'What was imported, in words', example: 'Imported the fr_FR translations of 1 resource(s)' })
  message: string;

  @ApiPropertyOptional({ description: 'Resources imported, as the file names them (present when there is one)', type: [String], example: ['welcome'] })
  successful?: string[];

  @ApiPropertyOptional({ description: 'Resources not found, or not holding texts (present when there is one)', type: [String], example: ['gone'] })
  failed?: string[];
}

export class MasterJsonQueryDto {
  @ApiPropertyOptional({ description: 'The locale to export; default: the environment’s default locale', example: 'de_DE' })
  @IsOptional()
  @IsString()
  @MaxLength(LOCALE_MAX)
  locale?: string;
}

export class MasterJsonResponseDto {
  @ApiProperty({
    description: 'Each workflow’s texts in the locale, by workflowId',
    type: 'object',
    additionalProperties: true,
    example: MASTER_EXAMPLE.workflows,
  })
  workflows: Record<string, unknown>;

  @ApiProperty({ description: 'Each layout’s texts in the locale, by layoutId', type: 'object', additionalProperties: true, example: {} })
  layouts: Record<string, unknown>;
}

export class TranslationSettingsResponseDto {
  @ApiProperty({ description: 'What every translation lookup falls back to', example: 'en_US' })
  defaultLocale: string;

  @ApiProperty({ description: 'The locales translations should cover (a translation group names those behind)', type: [String], example: ['de_DE', 'fr_FR'] })
  targetLocales: string[];
}

export class UpdateTranslationSettingsDto {
  @ApiPropertyOptional({ description: 'What every translation lookup falls back to', example: 'en_US' })
  @IsOptional()
  @IsString()
  @MaxLength(LOCALE_MAX)
  defaultLocale?: string;

  @ApiPropertyOptional({ description: 'The locales translations should cover; replaces the list', type: [String], example: ['de_DE', 'fr_FR'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @MaxLength(LOCALE_MAX, { each: true })
  targetLocales?: string[];
}
