import { PreviousStepState } from '@app/kernel';
import {
  DEFAULT_NOTIFICATION_GROUP_NAME,
  EmailBlock,
  StepDraft,
  StepFilterDraft,
  StepTemplate,
  StepVariant,
  Workflow,
  WorkflowFields,
  WorkflowStep,
  defaultNotificationGroupId,
  stepMetadata,
} from '@app/workflows';
import { StepFilterDto } from '../shared-dto/workflow.dto';
import { toFilterResponse } from '../shared-dto/workflow.mapper';
import {
  CreateWorkflowRequestDto,
  StepMetadataDto,
  StepRequestDto,
  StepResponseDto,
  StepVariantRequestDto,
  StepVariantResponseDto,
  UpdateWorkflowRequestDto,
  WorkflowResponseDto,
} from './workflow.dto';
import { definedOnly } from '../shared-dto/defined-only';

function toCondition(dto: StepFilterDto): StepFilterDraft {
  return {
    isNegated: dto.isNegated ?? false,
    type: dto.type ?? 'GROUP',
    value: dto.value,
    // Validated: a field part has field, value and operator; a previousStep part has stepType.
    children: dto.children.map((part) =>
      part.on === 'previousStep'
        ? definedOnly({ on: 'previousStep' as const, step: part.step, stepType: part.stepType as PreviousStepState })
        : { field: part.field as string, value: String(part.value), operator: part.operator as string, on: part.on },
    ),
  };
}

// Keeps only known block fields: the body was validated but not whitelisted inside the array.
function toEmailBlocks(blocks: Record<string, unknown>[]): EmailBlock[] {
  return blocks.map((block) =>
    definedOnly({
      type: block.type as EmailBlock['type'],
      content: block.content as string,
      url: block.url as string | undefined,
      styles: block.styles ? definedOnly({ textAlign: (block.styles as EmailBlock['styles'])?.textAlign }) : undefined,
    }),
  );
}

function toStepDraft(dto: StepVariantRequestDto): Omit<StepDraft, 'variants'> {
  const t = dto.template;
  const template = definedOnly({
    id: t._id,
    type: t.type,
    name: t.name,
    content: Array.isArray(t.content) ? toEmailBlocks(t.content) : t.content,
    contentType: t.contentType,
    subject: t.subject,
    preheader: t.preheader,
    title: t.title,
    senderName: t.senderName,
    avatar: t.avatar,
    actor: t.actor ? { type: t.actor.type, data: t.actor.data ?? null } : undefined,
    variables: t.variables?.map((v) => definedOnly({ name: v.name, type: v.type, required: v.required, defaultValue: v.defaultValue })),
    cta: t.cta
      ? definedOnly({
          type: t.cta.type,
          data: t.cta.data ? definedOnly({ url: t.cta.data.url }) : undefined,
          action: t.cta.action ? definedOnly({ buttons: t.cta.action.buttons?.map((b) => definedOnly({ ...b })) }) : undefined,
        })
      : undefined,
  }) as StepDraft['template'];
  return definedOnly({
    id: dto._id,
    uuid: dto.uuid,
    name: dto.name,
    active: dto.active,
    shouldStopOnFail: dto.shouldStopOnFail,
    template,
    filters: dto.filters?.map(toCondition),
    metadata: dto.metadata ? definedOnly({ ...dto.metadata, timed: dto.metadata.timed ? definedOnly({ ...dto.metadata.timed }) : undefined }) : undefined,
    replyCallback: dto.replyCallback ? definedOnly({ active: dto.replyCallback.active, url: dto.replyCallback.url }) : undefined,
  });
}

function toStepDrafts(steps: StepRequestDto[]): StepDraft[] {
  return steps.map((step) => ({ ...toStepDraft(step), variants: (step.variants ?? []).map(toStepDraft) }));
}

export function toWorkflowFields(body: CreateWorkflowRequestDto | UpdateWorkflowRequestDto): WorkflowFields {
  return definedOnly({
    name: body.name,
    identifier: body.identifier,
    description: body.description,
    tags: body.tags,
    active: body.active,
    critical: body.critical,
    preferenceSettings: body.preferenceSettings ? definedOnly({ ...body.preferenceSettings }) : undefined,
    data: body.data,
    notificationGroupId: body.notificationGroupId,
    steps: body.steps ? toStepDrafts(body.steps) : undefined,
    // Steps written through v1 are Handlebars templates.
    origin: body.steps ? 'novu-cloud-v1' : undefined,
  });
}

function toTemplateResponse(template: StepTemplate) {
  const { id, ...rest } = template;
  return { _id: id, ...rest };
}

function toVariantResponse(step: StepVariant): StepVariantResponseDto {
  return {
    _id: step.id,
    uuid: step.uuid,
    name: step.name,
    _templateId: step.template.id,
    active: step.active,
    shouldStopOnFail: step.shouldStopOnFail,
    template: toTemplateResponse(step.template) as StepVariantResponseDto['template'],
    filters: step.filters.map(toFilterResponse),
    // v1 shows the metadata of its own step types; a throttle's or HTTP request's is v2's to show.
    ...withMetadata(stepMetadata(step, 'digest') ?? stepMetadata(step, 'delay')),
    ...(step.replyCallback ? { replyCallback: step.replyCallback } : {}),
  };
}

function withMetadata(metadata: StepMetadataDto | undefined): { metadata?: StepMetadataDto } {
  return metadata ? { metadata } : {};
}

function toStepResponse(step: WorkflowStep): StepResponseDto {
  return { ...toVariantResponse(step), variants: step.variants.map(toVariantResponse) };
}

/** Novu's "Workflow template" shape; messages and notifications embed the same. */
export function toWorkflowResponse(workflow: Workflow): WorkflowResponseDto {
  const inDefaultGroup = workflow.notificationGroupId === defaultNotificationGroupId(workflow.environmentId);
  return {
    _id: workflow.id,
    name: workflow.name,
    description: workflow.description,
    active: workflow.active,
    draft: workflow.draft,
    preferenceSettings: workflow.preferenceSettings,
    critical: workflow.critical,
    tags: workflow.tags,
    steps: workflow.steps.map(toStepResponse),
    _organizationId: workflow.organizationId,
    _creatorId: workflow.creatorId,
    _environmentId: workflow.environmentId,
    triggers: [
      {
        type: 'event',
        identifier: workflow.trigger.identifier,
        variables: workflow.trigger.variables.map((name) => ({ name })),
        subscriberVariables: workflow.trigger.subscriberVariables.map((name) => ({ name })),
      },
    ],
    _notificationGroupId: workflow.notificationGroupId,
    ...(inDefaultGroup
      ? {
          notificationGroup: {
            _id: workflow.notificationGroupId,
            name: DEFAULT_NOTIFICATION_GROUP_NAME,
            _environmentId: workflow.environmentId,
            _organizationId: workflow.organizationId,
          },
        }
      : {}),
    deleted: workflow.deletedAt !== undefined,
    // Novu's schema (and so the @novu/api SDK) requires both as strings, never null: empty while live.
    deletedAt: workflow.deletedAt?.toISOString() ?? '',
    deletedBy: workflow.deletedBy ?? '',
    ...(workflow.data !== undefined ? { data: workflow.data } : {}),
    createdAt: workflow.createdAt.toISOString(),
    updatedAt: workflow.updatedAt.toISOString(),
  };
}
