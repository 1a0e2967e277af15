import { isDeepStrictEqual } from 'node:util';
import { Workflow, WorkflowStep } from './workflow';
import { defaultNotificationGroupId } from './workflow-fields';

/**
 * Publishing copies workflows from one environment to another (Novu's Development → Production),
 * matched by trigger identifier. A copy has its own id, environment and history, and the source's
 * content: the fields below, steps with their ids. So a diff compares content only, never ids or times.
 */
const CONTENT_FIELDS = ['name', 'description', 'active', 'draft', 'critical', 'preferenceSettings', 'tags', 'trigger', 'data'] as const;
type ContentField = (typeof CONTENT_FIELDS)[number];
type WorkflowContent = Pick<Workflow, ContentField | 'steps'>;

export type DiffAction = 'added' | 'modified' | 'deleted' | 'unchanged' | 'moved';

export interface StepChange {
  action: DiffAction;
  step: Pick<WorkflowStep, 'id' | 'name' | 'template'>;
  previousIndex?: number;
  newIndex?: number;
  /** The step as the target has it (null for an added step) and as the source has it (null for a deleted one). */
  previous: WorkflowStep | null;
  next: WorkflowStep | null;
}

/** How one workflow differs between the source and the target environment. */
export interface WorkflowDiff {
  /** The trigger identifier both sides share (Novu's workflowId). */
  workflowId: string;
  action: 'added' | 'modified' | 'deleted' | 'unchanged';
  source: Workflow | null;
  target: Workflow | null;
  /** The workflow's own fields that differ (steps aside): the target's values, and the source's. */
  fields: { previous: Partial<WorkflowContent>; next: Partial<WorkflowContent> } | null;
  /** Step by step, for a modified workflow (every step added for an added one); unchanged steps are left out. */
  steps: StepChange[];
}

/** JSON as the store keeps it: no undefined fields, Dates as text, so a read-back copy compares equal. */
const normalized = (value: unknown): unknown => (value === undefined ? null : JSON.parse(JSON.stringify(value)));
const same = (a: unknown, b: unknown) => isDeepStrictEqual(normalized(a), normalized(b));

/** A step as a diff shows it: without `variant`, which only a running step has. */
function stepContent(step: WorkflowStep): WorkflowStep {
  const { variant: _running, ...content } = step;
  return content;
}

export function diffWorkflows(source: Workflow[], target: Workflow[]): WorkflowDiff[] {
  const targets = new Map(target.map((w) => [w.trigger.identifier, w]));
  const sources = new Set(source.map((w) => w.trigger.identifier));
  const diffs = source.map((s) => diffOne(s, targets.get(s.trigger.identifier) ?? null));
  for (const t of target) {
    if (!sources.has(t.trigger.identifier)) {
      diffs.push({ workflowId: t.trigger.identifier, action: 'deleted', source: null, target: t, fields: null, steps: [] });
    }
  }
  return diffs;
}

function diffOne(source: Workflow, target: Workflow | null): WorkflowDiff {
  const workflowId = source.trigger.identifier;
  if (!target) {
    const steps = source.steps.map((step, index): StepChange => ({ action: 'added', step, newIndex: index, previous: null, next: stepContent(step) }));
    return { workflowId, action: 'added', source, target: null, fields: null, steps };
  }
  const changed = CONTENT_FIELDS.filter((field) => !same(source[field], target[field]));
  const fields = changed.length
    ? {
        previous: Object.fromEntries(changed.map((field) => [field, target[field]])) as Partial<WorkflowContent>,
        next: Object.fromEntries(changed.map((field) => [field, source[field]])) as Partial<WorkflowContent>,
      }
    : null;
  const steps = diffSteps(source.steps, target.steps);
  const action = fields || steps.length ? 'modified' : 'unchanged';
  return { workflowId, action, source, target, fields, steps };
}

/** Steps are matched by id (a copy keeps its source's step ids). */
function diffSteps(source: WorkflowStep[], target: WorkflowStep[]): StepChange[] {
  const targetIndex = new Map(target.map((step, index) => [step.id, index]));
  const changes: StepChange[] = [];
  source.forEach((step, newIndex) => {
    const previousIndex = targetIndex.get(step.id);
    if (previousIndex === undefined) {
      changes.push({ action: 'added', step, newIndex, previous: null, next: stepContent(step) });
      return;
    }
    const previous = target[previousIndex];
    const action = !same(stepContent(step), stepContent(previous)) ? 'modified' : previousIndex !== newIndex ? 'moved' : null;
    if (action) changes.push({ action, step, previousIndex, newIndex, previous: stepContent(previous), next: stepContent(step) });
  });
  const sourceIds = new Set(source.map((step) => step.id));
  target.forEach((step, previousIndex) => {
    if (!sourceIds.has(step.id)) changes.push({ action: 'deleted', step, previousIndex, previous: stepContent(step), next: null });
  });
  return changes;
}

/**
 * The source's content written over `base` (a new copy's identity, or the target workflow being
 * replaced), in the target environment's notification group, stamped as published now by `by`.
 */
export function publishedCopy(
  source: Workflow,
  base: Pick<Workflow, 'id' | 'organizationId' | 'environmentId' | 'creatorId' | 'createdAt' | 'revision'>,
  now: Date,
  by: string,
): Workflow {
  const content = structuredClone(Object.fromEntries([...CONTENT_FIELDS, 'steps'].map((field) => [field, source[field as keyof Workflow]])));
  return {
    ...(content as WorkflowContent),
    ...base,
    notificationGroupId: defaultNotificationGroupId(base.environmentId),
    updatedAt: now,
    lastPublishedAt: now,
    lastPublishedBy: by,
  };
}
