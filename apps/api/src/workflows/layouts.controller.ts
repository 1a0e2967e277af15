import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiConflictResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { PreviewLayout } from '@app/delivery';
import { AuthenticatedScope } from '@app/environments';
import { CreateLayout, DeleteLayout, DuplicateLayout, GetLayout, GetLayoutUsage, ListLayouts, UpdateLayout } from '@app/workflows';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import {
  CreateLayoutDto,
  DuplicateLayoutDto,
  LAYOUT_BODY_EXAMPLE,
  LayoutListResponseDto,
  LayoutPreviewRequestDto,
  LayoutPreviewResponseDto,
  LayoutResponseDto,
  LayoutUsageResponseDto,
  ListLayoutsQueryDto,
  UpdateLayoutDto,
} from './layout.dto';
import { layoutControlValues, toLayoutResponse } from './layout.mapper';
import { SUBSCRIBER_VARIABLES_SCHEMA } from './workflow-v2.schemas';

const LayoutIdParam = () => ApiParam({ name: 'layoutId', description: 'The layout’s `layoutId`, database `id`, or `slug`', example: 'brand' });
const NotFound = () => ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such layout in this environment' });

/**
 * Novu v2's email layouts: the frame an email step's body is sent in (`{{ content }}`), named by the
 * steps' `layoutId`; the environment's default frames the steps that name none.
 */
@ApiTags('Layouts')
@ApiCommonErrors()
@Controller({ path: 'layouts', version: '2' })
export class LayoutsController {
  constructor(
    private readonly createLayout: CreateLayout,
    private readonly updateLayout: UpdateLayout,
    private readonly getLayout: GetLayout,
    private readonly listLayouts: ListLayouts,
    private readonly deleteLayout: DeleteLayout,
    private readonly duplicateLayout: DuplicateLayout,
    private readonly getLayoutUsage: GetLayoutUsage,
    private readonly previewLayout: PreviewLayout,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create a layout',
    description:
      'It starts as a plain HTML document holding `{{ content }}` (change it with PUT). The environment’s first layout (while it has no default) becomes its default. 409 when the layoutId is taken.',
  })
  @ApiBody({ type: CreateLayoutDto, examples: { brand: { summary: 'A layout named Brand', value: { layoutId: 'brand', name: 'Brand' } } } })
  @ApiDataResponse(LayoutResponseDto, { status: 201, description: 'The created layout' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The layoutId is taken (`layout_id_taken`)' })
  async create(@CurrentScope() scope: AuthenticatedScope, @Body() body: CreateLayoutDto): Promise<LayoutResponseDto> {
    return toLayoutResponse(
      await this.createLayout.execute({
        scope,
        creatorId: scope.apiKeyId,
        name: body.name,
        layoutId: body.layoutId,
        isTranslationEnabled: body.isTranslationEnabled,
      }),
    );
  }

  @Get()
  @ApiOperation({ summary: 'List layouts', description: 'Search by name or layoutId; sort by creation, update or name.' })
  @ApiDataResponse(LayoutListResponseDto, { description: 'One page of layouts and how many match' })
  async list(@CurrentScope() scope: AuthenticatedScope, @Query() query: ListLayoutsQueryDto): Promise<LayoutListResponseDto> {
    const { items, totalCount } = await this.listLayouts.execute({
      scope,
      offset: query.offset,
      limit: query.limit,
      query: query.query,
      orderBy: query.orderBy,
      orderDirection: query.orderDirection === 'ASC' ? 'asc' : 'desc',
    });
    return { layouts: items.map(toLayoutResponse), totalCount };
  }

  @Get(':layoutId')
  @ApiOperation({ summary: 'Get a layout' })
  @LayoutIdParam()
  @ApiDataResponse(LayoutResponseDto)
  @NotFound()
  async get(@CurrentScope() scope: AuthenticatedScope, @Param('layoutId') layoutId: string): Promise<LayoutResponseDto> {
    return toLayoutResponse(await this.getLayout.execute({ scope, layoutId }));
  }

  @Put(':layoutId')
  @ApiOperation({
    summary: 'Update a layout',
    description:
      'Its name, translation switch and frame (`controlValues.email`: a whole HTML document, or a block editor document, holding `{{ content }}`; 422 otherwise). ' +
      'The next email sent in it shows the change. `isDefault` makes it the environment’s default.',
  })
  @LayoutIdParam()
  @ApiBody({
    type: UpdateLayoutDto,
    examples: {
      frame: { summary: 'Set the HTML frame', value: { name: 'Brand', controlValues: { email: { body: LAYOUT_BODY_EXAMPLE, editorType: 'html' } } } },
      makeDefault: { summary: 'Rename it and make it the default', value: { name: 'Brand', isDefault: true } },
    },
  })
  @ApiDataResponse(LayoutResponseDto, { description: 'The layout after the change' })
  @NotFound()
  async update(@CurrentScope() scope: AuthenticatedScope, @Param('layoutId') layoutId: string, @Body() body: UpdateLayoutDto): Promise<LayoutResponseDto> {
    return toLayoutResponse(
      await this.updateLayout.execute({
        scope,
        layoutId,
        changes: { name: body.name, isTranslationEnabled: body.isTranslationEnabled, controlValues: layoutControlValues(body) },
        isDefault: body.isDefault,
      }),
    );
  }

  @Delete(':layoutId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a layout',
    description:
      'Refused (409) for the environment’s default layout (`layout_is_default`) and for a layout email steps name (`layout_in_use`, with the `workflows` that use it).',
  })
  @LayoutIdParam()
  @ApiNoContentResponse({ description: 'Deleted' })
  @NotFound()
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'It is the default layout, or workflows use it (`workflows` lists them)' })
  async delete(@CurrentScope() scope: AuthenticatedScope, @Param('layoutId') layoutId: string): Promise<void> {
    await this.deleteLayout.execute({ scope, layoutId });
  }

  @Post(':layoutId/duplicate')
  @ApiOperation({
    summary: 'Duplicate a layout',
    description: 'A new layout with the original’s frame, under the given name (its layoutId: the one given, else the slug of the name).',
  })
  @LayoutIdParam()
  @ApiBody({
    type: DuplicateLayoutDto,
    examples: { winter: { summary: 'A copy for the winter campaign', value: { name: 'Brand (winter)', layoutId: 'brand-winter' } } },
  })
  @ApiDataResponse(LayoutResponseDto, { status: 201, description: 'The copy' })
  @NotFound()
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The copy’s layoutId is taken (`layout_id_taken`)' })
  async duplicate(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('layoutId') layoutId: string,
    @Body() body: DuplicateLayoutDto,
  ): Promise<LayoutResponseDto> {
    return toLayoutResponse(
      await this.duplicateLayout.execute({
        scope,
        creatorId: scope.apiKeyId,
        layoutId,
        name: body.name,
        newLayoutId: body.layoutId,
        isTranslationEnabled: body.isTranslationEnabled,
      }),
    );
  }

  @Post(':layoutId/preview')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Preview a layout',
    description:
      'Its frame (or the given `controlValues`) rendered as an email is, with a sample where a step’s body goes and the given subscriber (the rest sample values). ' +
      'A template that cannot render answers `result.error` with 201. Nothing is stored.',
  })
  @LayoutIdParam()
  @ApiBody({
    type: LayoutPreviewRequestDto,
    examples: {
      stored: { summary: 'The stored frame, for one subscriber', value: { previewPayload: { subscriber: { firstName: 'Ada', email: 'ada@example.com' } } } },
      other: { summary: 'Try another frame', value: { controlValues: { email: { body: LAYOUT_BODY_EXAMPLE, editorType: 'html' } } } },
    },
  })
  @ApiDataResponse(LayoutPreviewResponseDto, { status: 201, description: 'The rendered frame (or its error) and what it was rendered with' })
  @NotFound()
  async preview(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('layoutId') layoutId: string,
    @Body() body: LayoutPreviewRequestDto,
  ): Promise<LayoutPreviewResponseDto> {
    const layout = await this.getLayout.execute({ scope, layoutId });
    const preview = await this.previewLayout.execute({ layout, controlValues: body.controlValues, subscriber: body.previewPayload?.subscriber });
    return { ...preview, schema: { type: 'object', properties: { subscriber: SUBSCRIBER_VARIABLES_SCHEMA } } };
  }

  @Get(':layoutId/usage')
  @ApiOperation({
    summary: 'The workflows that use a layout',
    description: 'Those whose email steps name it by layoutId (steps that name none use the default without naming it).',
  })
  @LayoutIdParam()
  @ApiDataResponse(LayoutUsageResponseDto)
  @NotFound()
  async usage(@CurrentScope() scope: AuthenticatedScope, @Param('layoutId') layoutId: string): Promise<LayoutUsageResponseDto> {
    return { workflows: await this.getLayoutUsage.execute({ scope, layoutId }) };
  }
}
