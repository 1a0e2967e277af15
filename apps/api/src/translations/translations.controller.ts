import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiNoContentResponse, ApiNotFoundResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { AuthenticatedScope } from '@app/environments';
import {
  DeleteTranslation,
  DeleteTranslationGroup,
  ExportMasterJson,
  GetTranslation,
  GetTranslationGroup,
  ImportMasterJson,
  SaveTranslation,
  TRANSLATION_RESOURCE_TYPES,
  TranslationResourceType,
  UploadMasterJson,
  UploadTranslations,
} from '@app/workflows';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import {
  CreateTranslationDto,
  ImportMasterJsonDto,
  ImportMasterJsonResponseDto,
  MasterJsonQueryDto,
  MasterJsonResponseDto,
  TranslationGroupResponseDto,
  TranslationResponseDto,
  UploadMasterJsonRequestDto,
  UploadTranslationsRequestDto,
  UploadTranslationsResponseDto,
} from './translation.dto';
import { UploadFormInvalidError, readUploadedForm, requiredField } from './uploaded-form';

export class TranslationGroupParams {
  @IsIn(TRANSLATION_RESOURCE_TYPES)
  resourceType: TranslationResourceType;

  @IsString()
  @MaxLength(256)
  resourceId: string;
}

export class TranslationParams extends TranslationGroupParams {
  @IsString()
  @MaxLength(35)
  locale: string;
}

const ResourceParams = () => [
  ApiParam({
    name: 'resourceType',
    description: 'What the texts translate: a workflow or an email layout',
    enum: TRANSLATION_RESOURCE_TYPES,
    example: 'workflow',
  }),
  ApiParam({ name: 'resourceId', description: 'The workflow’s workflowId (or internal id, or slug), or the layout’s layoutId', example: 'welcome' }),
];
const LocaleParam = () => ApiParam({ name: 'locale', description: 'Locale (`de_DE`, `de`; `-` may stand for `_`)', example: 'de_DE' });
const decorate =
  (decorators: MethodDecorator[]): MethodDecorator =>
  (target, key, descriptor) =>
    decorators.forEach((d) => d(target, key, descriptor));

const NOT_FOUND = 'No such workflow, or no translation of it';

/** A translation or group as answered: its times as ISO-8601 text. */
function withIsoTimes<T extends { createdAt: Date; updatedAt: Date }>(value: T): Omit<T, 'createdAt' | 'updatedAt'> & { createdAt: string; updatedAt: string } {
  return { ...value, createdAt: value.createdAt.toISOString(), updatedAt: value.updatedAt.toISOString() };
}

/**
 * Novu's translations (`/v2/translations`): a workflow's or a layout's texts per locale, read in
 * content as `{{ t.<key> }}` in the subscriber's locale. Uploads are multipart forms of JSON files
 * named by locale.
 */
@ApiTags('Translations')
@ApiCommonErrors()
@Controller({ path: 'translations', version: '2' })
export class TranslationsController {
  constructor(
    private readonly saveTranslation: SaveTranslation,
    private readonly getTranslation: GetTranslation,
    private readonly deleteTranslation: DeleteTranslation,
    private readonly getGroup: GetTranslationGroup,
    private readonly deleteGroup: DeleteTranslationGroup,
    private readonly uploadTranslations: UploadTranslations,
    private readonly importMasterJson: ImportMasterJson,
    private readonly uploadMasterJson: UploadMasterJson,
    private readonly exportMasterJson: ExportMasterJson,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create or replace a translation', description: 'The resource’s texts in one locale, replacing any it had there.' })
  @ApiBody({
    type: CreateTranslationDto,
    examples: {
      german: {
        summary: 'German texts of a workflow',
        value: {
          resourceId: 'welcome',
          resourceType: 'workflow',
          locale: 'de_DE',
          content: {
            greeting: 'Hallo {{ subscriber.firstName }}',
            email: { subject: 'Willkommen' },
            cart: { items_one: 'ein Artikel', items_other: '{{ count }} Artikel' },
          },
        },
      },
    },
  })
  @ApiDataResponse(TranslationResponseDto, { description: 'The translation as stored' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such workflow' })
  create(@CurrentScope() scope: AuthenticatedScope, @Body() body: CreateTranslationDto): Promise<TranslationResponseDto> {
    return this.saveTranslation.execute({ scope, ...body }).then(withIsoTimes);
  }

  @Post('upload')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Upload translation files',
    description:
      'Multipart form: `resourceId`, `resourceType` and JSON files (`files` or `files[]`) each named `<locale>.json`, each replacing that locale’s texts. ' +
      'A file name that is not a locale refuses the upload; a file that is not JSON texts fails alone (`errors`), the upload only when every file does (422).',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: UploadTranslationsRequestDto })
  @ApiDataResponse(UploadTranslationsResponseDto, { description: 'How many files were stored, and why the others were not' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such workflow' })
  async upload(@CurrentScope() scope: AuthenticatedScope, @Req() request: FastifyRequest): Promise<UploadTranslationsResponseDto> {
    const form = await readUploadedForm(request);
    const resourceId = requiredField(form, 'resourceId');
    const resourceType = requiredField(form, 'resourceType');
    if (!(TRANSLATION_RESOURCE_TYPES as readonly string[]).includes(resourceType)) {
      throw new UploadFormInvalidError('resourceType', `resourceType must be one of: ${TRANSLATION_RESOURCE_TYPES.join(', ')}`, resourceType);
    }
    const stray = form.files.find((file) => file.field !== 'files' && file.field !== 'files[]');
    if (stray) throw new UploadFormInvalidError(stray.field, 'files go in the form field `files` (or `files[]`)', stray.fileName);
    return this.uploadTranslations.execute({ scope, resourceType: resourceType as TranslationResourceType, resourceId, files: form.files });
  }

  @Get('master-json')
  @ApiOperation({
    summary: 'Export the master JSON',
    description:
      'Every workflow’s (by workflowId) and layout’s (by layoutId) texts in one locale, the environment’s default locale unless `locale` says another.',
  })
  @ApiDataResponse(MasterJsonResponseDto)
  master(@CurrentScope() scope: AuthenticatedScope, @Query() query: MasterJsonQueryDto): Promise<MasterJsonResponseDto> {
    return this.exportMasterJson.execute({ scope, locale: query.locale });
  }

  @Post('master-json')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Import a master JSON',
    description:
      'One locale’s texts of many workflows and layouts, each replacing that resource’s texts in the locale; resources not found are reported `failed`.',
  })
  @ApiBody({
    type: ImportMasterJsonDto,
    examples: {
      french: {
        summary: 'French texts of one workflow',
        value: { locale: 'fr_FR', masterJson: { workflows: { welcome: { greeting: 'Bonjour {{ subscriber.firstName }}' } } } },
      },
    },
  })
  @ApiDataResponse(ImportMasterJsonResponseDto)
  importMaster(@CurrentScope() scope: AuthenticatedScope, @Body() body: ImportMasterJsonDto): Promise<ImportMasterJsonResponseDto> {
    return this.importMasterJson.execute({ scope, locale: body.locale, masterJson: body.masterJson });
  }

  @Post('master-json/upload')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Upload a master JSON file',
    description: 'Multipart form with one file, `file`, named `<locale>.json` for the locale it holds; as the import.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: UploadMasterJsonRequestDto })
  @ApiDataResponse(ImportMasterJsonResponseDto)
  async uploadMaster(@CurrentScope() scope: AuthenticatedScope, @Req() request: FastifyRequest): Promise<ImportMasterJsonResponseDto> {
    const { files } = await readUploadedForm(request);
    if (files.length !== 1 || files[0].field !== 'file') {
      throw new UploadFormInvalidError(
        'file',
        'the form must carry exactly one file, in the field `file`',
        files.map((file) => file.fileName),
      );
    }
    return this.uploadMasterJson.execute({ scope, file: files[0] });
  }

  @Get('group/:resourceType/:resourceId')
  @ApiOperation({ summary: 'Get a translation group', description: 'The resource’s locales, and the target locales behind its default locale.' })
  @decorate(ResourceParams())
  @ApiDataResponse(TranslationGroupResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: NOT_FOUND })
  group(@CurrentScope() scope: AuthenticatedScope, @Param() params: TranslationGroupParams): Promise<TranslationGroupResponseDto> {
    return this.getGroup.execute({ scope, ...params }).then(withIsoTimes);
  }

  @Get(':resourceType/:resourceId/:locale')
  @ApiOperation({ summary: 'Get a translation' })
  @decorate([...ResourceParams(), LocaleParam()])
  @ApiDataResponse(TranslationResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: NOT_FOUND })
  get(@CurrentScope() scope: AuthenticatedScope, @Param() params: TranslationParams): Promise<TranslationResponseDto> {
    return this.getTranslation.execute({ scope, ...params }).then(withIsoTimes);
  }

  @Delete(':resourceType/:resourceId/:locale')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a translation' })
  @decorate([...ResourceParams(), LocaleParam()])
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: NOT_FOUND })
  async delete(@CurrentScope() scope: AuthenticatedScope, @Param() params: TranslationParams): Promise<void> {
    await this.deleteTranslation.execute({ scope, ...params });
  }

  @Delete(':resourceType/:resourceId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a translation group', description: 'Every locale of the resource.' })
  @decorate(ResourceParams())
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: NOT_FOUND })
  async deleteAll(@CurrentScope() scope: AuthenticatedScope, @Param() params: TranslationGroupParams): Promise<void> {
    await this.deleteGroup.execute({ scope, ...params });
  }
}
