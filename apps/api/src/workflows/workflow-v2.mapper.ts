import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import { UnprocessableError } from '@app/kernel';
import {
  FieldErrors,
  StepDraft,
  StepType,
  Workflow,
  WorkflowFields,
  WorkflowInvalidError,
  WorkflowPreferences,
  WorkflowStep,
  controlValuesOf,
  effectivePreferences,
  isSecretHeader,
  maskHeaderValue,
  parseBlockDocument,
  preferencesOfSettings,
  schemaExample,
  stepDraftFromControls,
  stepIdentifiers,
  workflowSlug,
  workflowStatus,
} from '@app/workflows';
import { CONTROL_SCHEMAS, SUBSCRIBER_VARIABLES_SCHEMA } from './workflow-v2.schemas';
import {
  CreateWorkflowV2Dto,
  PatchWorkflowV2Dto,
  StepUpsertV2Dto,
  StepV2ResponseDto,
  UNSUPPORTED_V2_STEP_TYPES,
  UpdateWorkflowV2Dto,
  WorkflowListItemV2Dto,
  WorkflowPreferencesV2Dto,
  WorkflowV2ResponseDto,
} from './workflow-v2.dto';

/** A step of a type this service does not run (Novu's Bridge `custom` steps, agents' `tool` steps). */
export class StepTypeNotSupportedError extends UnprocessableError {
  constructor(index: number, type: string) {
    const message = `${type} steps need Novu's Bridge or agents, which this service does not run`;
    super('not_supported', `steps.${index}: ${message}`, { errors: { [`steps.${index}.type`]: { messages: [message], value: type } } });
  }
}

// Controls are checked against their type's schema; compiled once per type.
const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<StepType, ValidateFunction>();
function validatorFor(type: StepType): ValidateFunction {
  let validate = validators.get(type);
  if (!validate) validators.set(type, (validate = ajv.compile(CONTROL_SCHEMAS[type].dataSchema)));
  return validate;
}

function controlErrors(index: number, errors: ErrorObject[]): FieldErrors {
  const result: FieldErrors = {};
  for (const error of errors) {
    const missing = error.keyword === 'required' ? `/${String(error.params.missingProperty)}` : '';
    const path = `steps.${index}.controlValues${(error.instancePath + missing).replace(/\//g, '.')}`;
    (result[path] ??= { messages: [], value: 'No Value Recorded' }).messages.push(error.message ?? 'is invalid');
  }
  return result;
}

/** The step drafts of a v2 write; a step names an existing one by its id, else by its stepId. */
function stepDrafts(steps: StepUpsertV2Dto[], current: readonly WorkflowStep[]): StepDraft[] {
  const currentIds = stepIdentifiers(current);
  const errors: FieldErrors = {};
  const drafts = steps.map((step, index): StepDraft => {
    if ((UNSUPPORTED_V2_STEP_TYPES as readonly string[]).includes(step.type)) throw new StepTypeNotSupportedError(index, step.type);
    const type = step.type as StepType;
    const validate = validatorFor(type);
    if (step.controlValues && !validate(step.controlValues)) Object.assign(errors, controlErrors(index, validate.errors ?? []));
    if (type === 'email') Object.assign(errors, emailControlErrors(index, step.controlValues ?? {}));
    const existing =
      current.find((candidate) => candidate.id === step._id && candidate.template.type === type) ??
      (step.stepId ? current.find((candidate) => currentIds.get(candidate.id) === step.stepId && candidate.template.type === type) : undefined);
    return stepDraftFromControls({
      id: existing?.id,
      stepId: step.stepId ?? (existing ? currentIds.get(existing.id) : undefined),
      name: step.name,
      type,
      controlValues: existing && step.controlValues ? keepStoredSecrets(step.controlValues, controlValuesOf(existing)) : step.controlValues,
    });
  });
  if (Object.keys(errors).length) throw new WorkflowInvalidError(errors);
  return drafts;
}

/** What the email schema cannot say: a block body that is not a block editor document (a layoutId the environment lacks is CreateWorkflow's and UpdateWorkflow's to refuse). */
function emailControlErrors(index: number, controls: Record<string, unknown>): FieldErrors {
  const errors: FieldErrors = {};
  const { body } = controls;
  if (controls.editorType !== 'html' && typeof body === 'string' && body.trim() !== '' && !parseBlockDocument(body)) {
    errors[`steps.${index}.controlValues.body`] = {
      messages: ['with editorType block (the default) the body is a block editor document: JSON of type "doc"; send HTML with editorType html'],
      value: body.length > 200 ? `${body.slice(0, 200)}…` : body,
    };
  }
  return errors;
}

type Header = { key: string; value: string };
const headersOf = (controls: Record<string, unknown>): Header[] | undefined => (Array.isArray(controls.headers) ? (controls.headers as Header[]) : undefined);

/** An HTTP request step's headers as shown: secret-looking values masked. */
function withMaskedHeaders(controls: Record<string, unknown>): Record<string, unknown> {
  const headers = headersOf(controls);
  if (!headers) return controls;
  return { ...controls, headers: headers.map((h) => (isSecretHeader(h.key) && h.value ? { ...h, value: maskHeaderValue(h.value) } : h)) };
}

/** A header sent back as it was shown (masked) keeps the value stored, so a read-then-write round trip loses no secret. */
function keepStoredSecrets(controls: Record<string, unknown>, stored: Record<string, unknown>): Record<string, unknown> {
  const incoming = headersOf(controls);
  const previous = new Map((headersOf(stored) ?? []).map((h) => [h.key.toLowerCase(), h.value]));
  if (!incoming || !previous.size) return controls;
  const kept = incoming.map((h) => {
    const old = typeof h.key === 'string' ? previous.get(h.key.toLowerCase()) : undefined;
    return old !== undefined && isSecretHeader(h.key) && h.value === maskHeaderValue(old) ? { ...h, value: old } : h;
  });
  return { ...controls, headers: kept };
}

/** The fields a v2 create or update (PUT) writes; the steps are written through v2 (Liquid). */
export function toV2Fields(body: CreateWorkflowV2Dto | UpdateWorkflowV2Dto, current: readonly WorkflowStep[] = []): WorkflowFields {
  return {
    ...toPatchFields(body),
    name: body.name,
    ...(body.workflowId !== undefined ? { identifier: body.workflowId } : {}),
    steps: stepDrafts(body.steps, current),
    origin: body.origin === 'external' ? 'external' : 'novu-cloud',
    ...(body.preferences ? { preferences: body.preferences } : {}),
    ...(body.severity ? { severity: body.severity } : {}),
  };
}

export function toPatchFields(body: PatchWorkflowV2Dto): WorkflowFields {
  const fields: WorkflowFields = {};
  if (body.name !== undefined) fields.name = body.name;
  if (body.description !== undefined) fields.description = body.description;
  if (body.tags !== undefined) fields.tags = body.tags;
  if (body.active !== undefined) fields.active = body.active;
  if (body.payloadSchema !== undefined) fields.payloadSchema = body.payloadSchema;
  if (body.validatePayload !== undefined) fields.validatePayload = body.validatePayload;
  if (body.isTranslationEnabled !== undefined) fields.isTranslationEnabled = body.isTranslationEnabled;
  return fields;
}

const preferencesDto = (preferences: WorkflowPreferences): WorkflowPreferencesV2Dto => ({
  all: { enabled: preferences.all.enabled ?? true, readOnly: preferences.all.readOnly ?? false },
  channels: preferences.channels,
});

/** `user`: set through v2 (or, for a workflow written through v1, its channel switches and criticality). */
function preferencesOf(workflow: Workflow): WorkflowV2ResponseDto['preferences'] {
  const layers = workflow.preferences ?? { user: preferencesOfSettings(workflow) };
  return {
    user: layers.user ? preferencesDto(layers.user) : null,
    default: preferencesDto(effectivePreferences({ workflow: layers.workflow })),
  };
}

function variablesSchema(workflow: Workflow, earlier: string[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      subscriber: SUBSCRIBER_VARIABLES_SCHEMA,
      payload: workflow.payloadSchema ?? { type: 'object', additionalProperties: true },
      steps: { type: 'object', properties: Object.fromEntries(earlier.map((stepId) => [stepId, { type: 'object', additionalProperties: true }])) },
    },
  };
}

export function toV2Step(workflow: Workflow, step: WorkflowStep, index: number, identifiers = stepIdentifiers(workflow.steps)): StepV2ResponseDto {
  const stepId = identifiers.get(step.id)!;
  const controlValues = withMaskedHeaders(controlValuesOf(step));
  const { group, dataSchema } = CONTROL_SCHEMAS[step.template.type];
  return {
    controls: { dataSchema, uiSchema: { group }, values: controlValues },
    controlValues,
    variables: variablesSchema(
      workflow,
      workflow.steps.slice(0, index).map((earlier) => identifiers.get(earlier.id)!),
    ),
    stepId,
    _id: step.id,
    name: step.name,
    slug: `${stepId}_st_${step.id}`,
    type: step.template.type,
    origin: workflow.origin ?? 'novu-cloud-v1',
    workflowId: workflow.trigger.identifier,
    workflowDatabaseId: workflow.id,
  };
}

export function toV2Response(workflow: Workflow): WorkflowV2ResponseDto {
  const identifiers = stepIdentifiers(workflow.steps);
  return {
    name: workflow.name,
    description: workflow.description,
    tags: workflow.tags,
    active: workflow.active,
    validatePayload: workflow.validatePayload ?? false,
    payloadSchema: workflow.payloadSchema ?? null,
    isTranslationEnabled: workflow.isTranslationEnabled ?? false,
    _id: workflow.id,
    workflowId: workflow.trigger.identifier,
    slug: workflowSlug(workflow),
    updatedAt: workflow.updatedAt.toISOString(),
    createdAt: workflow.createdAt.toISOString(),
    lastPublishedAt: workflow.lastPublishedAt?.toISOString() ?? null,
    steps: workflow.steps.map((step, index) => toV2Step(workflow, step, index, identifiers)),
    origin: workflow.origin ?? 'novu-cloud-v1',
    preferences: preferencesOf(workflow),
    status: workflowStatus(workflow),
    payloadExample: schemaExample(workflow.payloadSchema),
    severity: workflow.severity ?? 'none',
  };
}

export function toV2ListItem(workflow: Workflow): WorkflowListItemV2Dto {
  const identifiers = stepIdentifiers(workflow.steps);
  return {
    name: workflow.name,
    tags: workflow.tags,
    updatedAt: workflow.updatedAt.toISOString(),
    createdAt: workflow.createdAt.toISOString(),
    lastPublishedAt: workflow.lastPublishedAt?.toISOString() ?? null,
    _id: workflow.id,
    workflowId: workflow.trigger.identifier,
    slug: workflowSlug(workflow),
    status: workflowStatus(workflow),
    origin: workflow.origin ?? 'novu-cloud-v1',
    stepTypeOverviews: workflow.steps.map((step) => step.template.type),
    isTranslationEnabled: workflow.isTranslationEnabled ?? false,
    steps: workflow.steps.map((step) => ({ slug: `${identifiers.get(step.id)!}_st_${step.id}`, type: step.template.type })),
  };
}
