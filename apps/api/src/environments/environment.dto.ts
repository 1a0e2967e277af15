import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsMongoId, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { ENVIRONMENT_COLOR_PATTERN } from '@app/environments';

const NAME_MAX = 64;
const ENVIRONMENT_ID_EXAMPLE = '6650f0a1c2b3d4e5f6a7b8c9';

export class ApiKeyResponseDto {
  @ApiProperty({ description: 'The secret key: shown here once, when the environment is created (only its hash is kept)', example: 'd6f1c0a4e5b2…' })
  key: string;
  @ApiProperty({ description: 'Who made it: the id of the API key that created the environment', example: ENVIRONMENT_ID_EXAMPLE })
  _userId: string;
}

export class EnvironmentResponseDto {
  @ApiProperty({ description: 'Environment id', example: ENVIRONMENT_ID_EXAMPLE }) _id: string;
  @ApiProperty({ description: 'Environment name', example: 'Development' }) name: string;
  @ApiProperty({ description: 'Organization id' }) _organizationId: string;
  @ApiProperty({ description: "Public identifier: the Inbox's applicationIdentifier", example: 'Xy3kPq0aBc1d' }) identifier: string;
  @ApiProperty({ description: "Novu's environment type: `dev` for Development, `prod` for every other", enum: ['dev', 'prod'], example: 'dev' })
  type: 'dev' | 'prod';
  @ApiPropertyOptional({ description: 'The environment it is published from (Production: Development)', example: ENVIRONMENT_ID_EXAMPLE })
  _parentId?: string;
  @ApiPropertyOptional({ description: 'Hex colour', example: '#4caf50' }) color?: string;
  @ApiProperty({ description: 'Whether the Inbox session requires subscriberHash (HMAC)' }) inboxHmac: boolean;
  @ApiProperty({ description: 'Created at (ISO-8601)' }) createdAt: string;
  @ApiPropertyOptional({ description: 'Only in the answer to its creation: the new API key of the environment', type: [ApiKeyResponseDto] })
  apiKeys?: ApiKeyResponseDto[];
}

export class CreateEnvironmentRequestDto {
  @ApiProperty({ description: 'Name, unique in the organization', example: 'Staging', maxLength: NAME_MAX })
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name: string;

  @ApiPropertyOptional({ description: 'The environment it is published from; default: the Development environment', example: ENVIRONMENT_ID_EXAMPLE })
  @IsOptional()
  @IsMongoId()
  parentId?: string;

  @ApiProperty({ description: 'Hex colour (`#RGB` or `#RRGGBB`)', example: '#4caf50' })
  @Matches(ENVIRONMENT_COLOR_PATTERN, { message: 'color must be a hex colour such as #4caf50' })
  color: string;
}

export class UpdateEnvironmentRequestDto {
  @ApiPropertyOptional({
    description: 'New name, unique in the organization (the Development environment keeps its name)',
    example: 'Staging EU',
    maxLength: NAME_MAX,
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name?: string;

  @ApiPropertyOptional({
    description: 'The environment it is published from (another of the organization, never a descendant)',
    example: ENVIRONMENT_ID_EXAMPLE,
  })
  @IsOptional()
  @IsMongoId()
  parentId?: string;

  @ApiPropertyOptional({ description: 'Hex colour (`#RGB` or `#RRGGBB`)', example: '#2196f3' })
  @IsOptional()
  @Matches(ENVIRONMENT_COLOR_PATTERN, { message: 'color must be a hex colour such as #4caf50' })
  color?: string;
}

export class DiffEnvironmentRequestDto {
  @ApiPropertyOptional({ description: 'The environment to compare from; default: the Development environment', example: ENVIRONMENT_ID_EXAMPLE })
  @IsOptional()
  @IsMongoId()
  sourceEnvironmentId?: string;
}

export class ResourceToPublishDto {
  @ApiProperty({
    description:
      'Type of the resource: `layout`, or a workflow: `workflow` (Novu) or, as @novu/api 3.x sends them, `REGULAR`, `ECHO` or `BRIDGE` (one that names no workflow but a layout publishes the layout, since that SDK cannot send `layout`); other types answer 400',
    example: 'REGULAR',
  })
  @IsString()
  resourceType: string;

  @ApiProperty({
    description: "The workflow's workflowId (trigger identifier) or the layout's layoutId, or its `_id`, in the source environment",
    example: 'welcome',
  })
  @IsString()
  @IsNotEmpty()
  resourceId: string;
}

export class PublishEnvironmentRequestDto {
  @ApiPropertyOptional({ description: 'The environment to publish from; default: the Development environment', example: ENVIRONMENT_ID_EXAMPLE })
  @IsOptional()
  @IsMongoId()
  sourceEnvironmentId?: string;

  @ApiPropertyOptional({ description: 'Report what would be done without writing anything', example: false })
  @IsOptional()
  @IsBoolean()
  dryRun?: boolean;

  @ApiPropertyOptional({
    description:
      'Only these workflows and layouts, and the layouts those workflows use that the target lacks (then nothing is deleted); default: every workflow and layout of the source, and the target loses those the source has not',
    type: [ResourceToPublishDto],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => ResourceToPublishDto)
  resources?: ResourceToPublishDto[];
}

class ResourceInfoDto {
  @ApiPropertyOptional({
    description: 'Workflow: its workflowId (trigger identifier); step: its `_id`; layout: its layoutId',
    example: 'welcome',
    nullable: true,
    type: String,
  })
  id: string | null;
  @ApiPropertyOptional({ description: 'Workflow, step or layout name', example: 'Welcome', nullable: true, type: String })
  name: string | null;
  @ApiPropertyOptional({ description: 'Who last changed it (not recorded here: null)', nullable: true, type: Object, example: null })
  updatedBy: null;
  @ApiPropertyOptional({ description: 'When it was last changed (ISO-8601); null for a step', nullable: true, type: String })
  updatedAt: string | null;
}

const RESOURCE_TYPE = {
  description: "`REGULAR` for every workflow, step and layout (the values @novu/api 3.x accepts; Novu's server says `workflow`, `step` and `layout`)",
  enum: ['REGULAR'],
  example: 'REGULAR',
};
const DIFF_ACTION = { description: 'What changed', enum: ['added', 'modified', 'deleted', 'unchanged', 'moved'] };

class DiffsDto {
  @ApiPropertyOptional({ description: 'The target side: the fields that differ (workflow), or the step; null when added', nullable: true, type: Object })
  previous: Record<string, unknown> | null;
  @ApiPropertyOptional({ description: 'The source side, likewise; null when deleted', nullable: true, type: Object })
  new: Record<string, unknown> | null;
}

export class ResourceDiffDto {
  @ApiPropertyOptional({ type: ResourceInfoDto, nullable: true, description: 'The workflow, step or layout in the source (null when deleted)' })
  sourceResource: ResourceInfoDto | null;
  @ApiPropertyOptional({ type: ResourceInfoDto, nullable: true, description: 'The workflow, step or layout in the target (null when added)' })
  targetResource: ResourceInfoDto | null;
  @ApiProperty(RESOURCE_TYPE) resourceType: 'REGULAR';
  @ApiProperty(DIFF_ACTION) action: string;
  @ApiPropertyOptional({ type: DiffsDto, description: 'Both sides of what differs (a layout: name, isTranslationEnabled, controlValues, isDefault)' })
  diffs?: DiffsDto;
  @ApiPropertyOptional({ description: 'Step type (step entries only)', example: 'in_app' }) stepType?: string;
  @ApiPropertyOptional({ description: "The step's position in the target" }) previousIndex?: number;
  @ApiPropertyOptional({ description: "The step's position in the source" }) newIndex?: number;
}

class DiffSummaryDto {
  @ApiProperty({ description: 'Added (a new workflow counts itself and each of its steps)' }) added: number;
  @ApiProperty({ description: 'Modified (a workflow in both environments that differs counts once)' }) modified: number;
  @ApiProperty({ description: 'Deleted' }) deleted: number;
  @ApiProperty({ description: 'Unchanged' }) unchanged: number;
}

export class ResourceDependencyDto {
  @ApiProperty(RESOURCE_TYPE) resourceType: 'REGULAR';
  @ApiProperty({ description: 'The layoutId of a layout the workflow’s email steps name', example: 'brand' }) resourceId: string;
  @ApiProperty({ description: 'The layout’s name', example: 'Brand' }) resourceName: string;
  @ApiProperty({ description: 'The target lacks it: publishing the workflow publishes it too', example: true }) isBlocking: boolean;
  @ApiProperty({ description: 'Why it is listed', enum: ['LAYOUT_REQUIRED_FOR_WORKFLOW', 'LAYOUT_EXISTS_IN_TARGET'], example: 'LAYOUT_REQUIRED_FOR_WORKFLOW' })
  reason: string;
}

export class ResourceDiffResultDto {
  @ApiProperty(RESOURCE_TYPE) resourceType: 'REGULAR';
  @ApiPropertyOptional({ type: ResourceInfoDto, nullable: true, description: 'The workflow or layout in the source (null when deleted)' })
  sourceResource: ResourceInfoDto | null;
  @ApiPropertyOptional({ type: ResourceInfoDto, nullable: true, description: 'The workflow or layout in the target (null when added)' })
  targetResource: ResourceInfoDto | null;
  @ApiProperty({ type: [ResourceDiffDto], description: 'The workflow (or layout) entry, then one entry per step that differs' }) changes: ResourceDiffDto[];
  @ApiProperty({ type: DiffSummaryDto, description: 'Counts of this workflow and its steps by action' }) summary: DiffSummaryDto;
  @ApiProperty({ description: 'A workflow: the layouts its email steps need in the target (a layout: none)', type: [ResourceDependencyDto] })
  dependencies: ResourceDependencyDto[];
}

class EnvironmentDiffSummaryDto {
  @ApiProperty({ description: 'Workflows and layouts compared' }) totalEntities: number;
  @ApiProperty({ description: 'Workflows and layouts added, modified or deleted' }) totalChanges: number;
  @ApiProperty({ description: 'Whether publishing would change anything' }) hasChanges: boolean;
}

export class DiffEnvironmentResponseDto {
  @ApiProperty({ description: 'The environment compared from', example: ENVIRONMENT_ID_EXAMPLE }) sourceEnvironmentId: string;
  @ApiProperty({ description: 'The environment compared to', example: ENVIRONMENT_ID_EXAMPLE }) targetEnvironmentId: string;
  @ApiProperty({ type: [ResourceDiffResultDto], description: 'One entry per workflow of either environment, unchanged ones included, then one per layout' })
  resources: ResourceDiffResultDto[];
  @ApiProperty({ type: EnvironmentDiffSummaryDto, description: 'Totals over the workflows' }) summary: EnvironmentDiffSummaryDto;
}

class SyncedResourceDto {
  @ApiProperty(RESOURCE_TYPE) resourceType: 'REGULAR';
  @ApiProperty({ description: 'The workflowId (trigger identifier), or the layoutId', example: 'welcome' }) resourceId: string;
  @ApiProperty({ description: 'Workflow or layout name', example: 'Welcome' }) resourceName: string;
}

class SuccessfulResourceDto extends SyncedResourceDto {
  @ApiProperty({ description: 'What was done in the target', enum: ['created', 'updated', 'deleted'] }) action: string;
}

class FailedResourceDto extends SyncedResourceDto {
  @ApiProperty({ description: 'Why it failed (it changed in the target meanwhile; a layout workflows of the target still use)' }) error: string;
}

class SkippedResourceDto extends SyncedResourceDto {
  @ApiProperty({ description: '`No changes`, or on a dry run what would be done (`Dry run: would be created`…)', example: 'No changes' })
  reason: string;
}

class SyncResultDto {
  @ApiProperty(RESOURCE_TYPE) resourceType: 'REGULAR';
  @ApiProperty({ type: [SuccessfulResourceDto], description: 'Those created, updated or deleted in the target' }) successful: SuccessfulResourceDto[];
  @ApiProperty({ type: [FailedResourceDto], description: 'Those that could not be written' }) failed: FailedResourceDto[];
  @ApiProperty({ type: [SkippedResourceDto], description: 'Those left as they were' }) skipped: SkippedResourceDto[];
  @ApiProperty({ description: 'How many were processed' }) totalProcessed: number;
}

class PublishSummaryDto {
  @ApiProperty({ description: 'Workflows and layouts processed' }) resources: number;
  @ApiProperty({ description: 'Created, updated or deleted in the target' }) successful: number;
  @ApiProperty({ description: 'Failed' }) failed: number;
  @ApiProperty({ description: 'Left as they were (unchanged, or a dry run)' }) skipped: number;
}

export class PublishEnvironmentResponseDto {
  @ApiProperty({ type: [SyncResultDto], description: 'Two entries: the workflows, then the layouts' }) results: SyncResultDto[];
  @ApiProperty({ type: PublishSummaryDto, description: 'Totals over the workflows and layouts' }) summary: PublishSummaryDto;
}

export class EnvironmentTagDto {
  @ApiProperty({ description: 'A tag of a workflow of the environment', example: 'onboarding' }) name: string;
}
