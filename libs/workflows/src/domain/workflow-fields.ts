import { createHash } from 'node:crypto';
import { ChannelFlags, allChannels } from '@app/kernel';
import { collectTemplateVariables } from './template-variables';
import { FieldErrors, StepDraft, buildSteps, previousStepFilterErrors, validateSteps } from './step-rules';
import { WorkflowInvalidError } from './errors';
import {
  SeverityLevel,
  TRIGGER_IDENTIFIER_MAX_LENGTH,
  TRIGGER_IDENTIFIER_PATTERN,
  Workflow,
  WorkflowOrigin,
  WorkflowPreferenceLayers,
  WorkflowStep,
  slugify,
  stepIdentifiers,
} from './workflow';
import { effectivePreferences, settingsOfPreferences } from './workflow-controls';

/** What a caller may set on a workflow (create: `name` required; update: anything). */
export interface WorkflowFields {
  name?: string;
  identifier?: string;
  description?: string;
  tags?: string[];
  active?: boolean;
  critical?: boolean;
  preferenceSettings?: Partial<ChannelFlags>;
  data?: Record<string, unknown>;
  notificationGroupId?: string;
  steps?: StepDraft[];
  /** Who writes the steps: v1 (`novu-cloud-v1`, Handlebars) or v2 (`novu-cloud`, Liquid). */
  origin?: WorkflowOrigin;
  /** null clears it. */
  payloadSchema?: Record<string, unknown> | null;
  validatePayload?: boolean;
  severity?: SeverityLevel;
  isTranslationEnabled?: boolean;
  /** v2 preferences; they set `preferenceSettings` and `critical` too. */
  preferences?: WorkflowPreferenceLayers;
}

/**
 * Without a notification-group resource every environment has one implicit "General" group,
 * with a stable id derived from the environment so it is the same in every process.
 */
export function defaultNotificationGroupId(environmentId: string): string {
  return createHash('sha256').update(`notification-group:${environmentId}`).digest('hex').slice(0, 24);
}

export const DEFAULT_NOTIFICATION_GROUP_NAME = 'General';

/** A group workflows are filed under (Novu's notification group); each environment has its one default group. */
export interface NotificationGroup {
  id: string;
  name: string;
  organizationId: string;
  environmentId: string;
}

export function defaultNotificationGroup(scope: { organizationId: string; environmentId: string }): NotificationGroup {
  return { id: defaultNotificationGroupId(scope.environmentId), name: DEFAULT_NOTIFICATION_GROUP_NAME, ...scope };
}

/** A caller's identifier, or the slug of the name (Novu's rule); refused if unusable. */
export function triggerIdentifierFor(name: string, identifier: string | undefined): string {
  const candidate = identifier ?? (slugify(name) || 'workflow');
  const errors: FieldErrors = {};
  if (!TRIGGER_IDENTIFIER_PATTERN.test(candidate) || candidate.length > TRIGGER_IDENTIFIER_MAX_LENGTH) {
    errors[identifier === undefined ? 'name' : 'identifier'] = {
      messages: [`the trigger identifier "${candidate}" may only hold letters, digits, "-", "_", ".", ":" (at most ${TRIGGER_IDENTIFIER_MAX_LENGTH})`],
      value: identifier ?? name,
    };
    throw new WorkflowInvalidError(errors);
  }
  return candidate;
}

export function stepsFrom(drafts: StepDraft[], current: WorkflowStep[] = []): WorkflowStep[] {
  const errors = validateSteps(drafts);
  if (Object.keys(errors).length) throw new WorkflowInvalidError(errors);
  const steps = buildSteps(drafts, current);
  // References between steps are checked once every step has its uuid.
  const links = previousStepFilterErrors(steps);
  if (Object.keys(links).length) throw new WorkflowInvalidError(links);
  return steps;
}

/** Applies a caller's changes to a workflow (or to a blank one), deriving draft and trigger variables. */
export function applyWorkflowFields(current: Workflow, fields: WorkflowFields): Workflow {
  const name = fields.name ?? current.name;
  const identifier = fields.identifier !== undefined ? triggerIdentifierFor(name, fields.identifier) : current.trigger.identifier;
  const steps = fields.steps !== undefined ? withStepIdentifiers(stepsFrom(fields.steps, current.steps), fields.origin) : current.steps;
  const active = fields.active ?? current.active;
  const fromPreferences = fields.preferences ? settingsOfPreferences(effectivePreferences(fields.preferences)) : undefined;
  const payloadSchema = fields.payloadSchema === null ? undefined : (fields.payloadSchema ?? current.payloadSchema);
  const { payloadSchema: _schema, ...rest } = current;
  return {
    ...rest,
    ...(payloadSchema ? { payloadSchema } : {}),
    ...definedOnly({
      origin: fields.origin ?? current.origin,
      validatePayload: fields.validatePayload ?? current.validatePayload,
      severity: fields.severity ?? current.severity,
      isTranslationEnabled: fields.isTranslationEnabled ?? current.isTranslationEnabled,
      // A v1 write of the channel switches or criticality replaces v2's preferences, which would say otherwise.
      preferences: fields.preferences ?? (fields.preferenceSettings || fields.critical !== undefined ? undefined : current.preferences),
    }),
    name,
    description: fields.description ?? current.description,
    tags: fields.tags ?? current.tags,
    active,
    draft: !active,
    critical: fromPreferences?.critical ?? fields.critical ?? current.critical,
    preferenceSettings: fromPreferences?.preferenceSettings ?? { ...current.preferenceSettings, ...definedOnly(fields.preferenceSettings ?? {}) },
    data: fields.data ?? current.data,
    notificationGroupId: fields.notificationGroupId ?? current.notificationGroupId,
    steps,
    trigger: { identifier, ...collectTemplateVariables(steps) },
  };
}

export function blankWorkflow(base: Pick<Workflow, 'id' | 'organizationId' | 'environmentId' | 'creatorId' | 'createdAt'>, name: string): Workflow {
  return {
    ...base,
    name,
    description: '',
    active: false,
    draft: true,
    critical: false,
    preferenceSettings: allChannels(true),
    tags: [],
    steps: [],
    trigger: { identifier: '', variables: [], subscriberVariables: [] },
    notificationGroupId: defaultNotificationGroupId(base.environmentId),
    updatedAt: base.createdAt,
    revision: 1,
  };
}

/**
 * Steps written through v2 keep a stepId each (their own, the one the step had, or the slug of the
 * name), so later steps and the v2 API can name them even when the step is renamed.
 */
function withStepIdentifiers(steps: WorkflowStep[], origin: WorkflowOrigin | undefined): WorkflowStep[] {
  if (origin !== 'novu-cloud') return steps;
  const identifiers = stepIdentifiers(steps);
  return steps.map((step) => ({ ...step, stepId: identifiers.get(step.id)! }));
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
