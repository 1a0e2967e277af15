import { Environment, environmentType } from '@app/environments';
import { EnvironmentDiff, LayoutDiff, PublishResult, StepChange, WorkflowDiff, layoutDependencies, layoutIdsOf } from '@app/workflows';
import {
  DiffEnvironmentResponseDto,
  EnvironmentResponseDto,
  PublishEnvironmentResponseDto,
  ResourceDependencyDto,
  ResourceDiffDto,
  ResourceDiffResultDto,
} from './environment.dto';

export function toEnvironmentResponse(environment: Environment): EnvironmentResponseDto {
  return {
    _id: environment.id,
    name: environment.name,
    _organizationId: environment.organizationId,
    identifier: environment.identifier,
    type: environmentType(environment),
    ...(environment.parentId ? { _parentId: environment.parentId } : {}),
    ...(environment.color ? { color: environment.color } : {}),
    inboxHmac: environment.inboxHmac,
    createdAt: environment.createdAt.toISOString(),
  };
}

/**
 * Every resource is `REGULAR`: @novu/api 3.x validates `resourceType` against REGULAR/ECHO/BRIDGE (its
 * enum of that name), so Novu's own `workflow`/`step`/`layout` would fail every SDK call. Layouts come
 * after the workflows in a diff, and second in a publish's results.
 */
const RESOURCE_TYPE = 'REGULAR' as const;

type Side = WorkflowDiff['source'];
const workflowInfo = (workflow: Side) =>
  workflow ? { id: workflow.trigger.identifier, name: workflow.name, updatedBy: null, updatedAt: workflow.updatedAt.toISOString() } : null;

function stepEntry(change: StepChange): ResourceDiffDto {
  const info = { id: change.step.id, name: change.step.name, updatedBy: null, updatedAt: null };
  return {
    sourceResource: change.next ? info : null,
    targetResource: change.previous ? info : null,
    resourceType: RESOURCE_TYPE,
    action: change.action,
    stepType: change.step.template.type,
    ...(change.previousIndex !== undefined ? { previousIndex: change.previousIndex } : {}),
    ...(change.newIndex !== undefined ? { newIndex: change.newIndex } : {}),
    diffs: { previous: asRecord(change.previous), new: asRecord(change.next) },
  };
}

const asRecord = (value: object | null) => (value ? (JSON.parse(JSON.stringify(value)) as Record<string, unknown>) : null);

/** The layouts a workflow's email steps name: blocking when the target lacks one (publishing the workflow publishes it too). */
function dependenciesOf(diff: WorkflowDiff, layouts: LayoutDiff[]): ResourceDependencyDto[] {
  return layoutDependencies(diff.source ? layoutIdsOf(diff.source) : [], layouts).map((dependency) => ({
    resourceType: RESOURCE_TYPE,
    resourceId: dependency.layoutId,
    resourceName: dependency.name,
    isBlocking: !dependency.inTarget,
    reason: dependency.inTarget ? 'LAYOUT_EXISTS_IN_TARGET' : 'LAYOUT_REQUIRED_FOR_WORKFLOW',
  }));
}

function summaryOf(changes: ResourceDiffDto[], modified: boolean) {
  const summary = { added: 0, modified: 0, deleted: 0, unchanged: 0 };
  if (modified) summary.modified = 1;
  else for (const change of changes) summary[change.action === 'moved' ? 'modified' : (change.action as keyof typeof summary)] += 1;
  return summary;
}

function resourceOf(diff: WorkflowDiff, layouts: LayoutDiff[]): ResourceDiffResultDto {
  const sourceResource = workflowInfo(diff.source);
  const targetResource = workflowInfo(diff.target);
  const own: ResourceDiffDto[] =
    diff.action === 'modified' && !diff.fields
      ? []
      : [
          {
            sourceResource,
            targetResource,
            resourceType: RESOURCE_TYPE,
            action: diff.action,
            ...(diff.fields ? { diffs: { previous: asRecord(diff.fields.previous), new: asRecord(diff.fields.next) } } : {}),
          },
        ];
  const changes = [...own, ...diff.steps.map(stepEntry)];
  return {
    resourceType: RESOURCE_TYPE,
    sourceResource,
    targetResource,
    changes,
    summary: summaryOf(changes, diff.action === 'modified'),
    dependencies: dependenciesOf(diff, layouts),
  };
}

const layoutInfo = (layout: LayoutDiff['source']) =>
  layout ? { id: layout.layoutId, name: layout.name, updatedBy: null, updatedAt: layout.updatedAt.toISOString() } : null;

function layoutResourceOf(diff: LayoutDiff): ResourceDiffResultDto {
  const sourceResource = layoutInfo(diff.source);
  const targetResource = layoutInfo(diff.target);
  const changes: ResourceDiffDto[] = [
    {
      sourceResource,
      targetResource,
      resourceType: RESOURCE_TYPE,
      action: diff.action,
      ...(diff.fields ? { diffs: { previous: asRecord(diff.fields.previous), new: asRecord(diff.fields.next) } } : {}),
    },
  ];
  return { resourceType: RESOURCE_TYPE, sourceResource, targetResource, changes, summary: summaryOf(changes, false), dependencies: [] };
}

export function toDiffResponse(diff: EnvironmentDiff): DiffEnvironmentResponseDto {
  const entities = [...diff.workflows, ...diff.layouts];
  const totalChanges = entities.filter((entity) => entity.action !== 'unchanged').length;
  return {
    sourceEnvironmentId: diff.source.environmentId,
    targetEnvironmentId: diff.target.environmentId,
    resources: [...diff.workflows.map((workflow) => resourceOf(workflow, diff.layouts)), ...diff.layouts.map(layoutResourceOf)],
    summary: { totalEntities: entities.length, totalChanges, hasChanges: totalChanges > 0 },
  };
}

type Outcome = PublishResult['outcomes'][number];

function syncResult(outcomes: Outcome[]) {
  const base = (o: Outcome) => ({ resourceType: RESOURCE_TYPE, resourceId: o.resourceId, resourceName: o.name });
  const successful = outcomes.flatMap((o) =>
    o.action === 'created' || o.action === 'updated' || o.action === 'deleted' ? [{ ...base(o), action: o.action }] : [],
  );
  const failed = outcomes.flatMap((o) => (o.action === 'failed' ? [{ ...base(o), error: o.error }] : []));
  const skipped = outcomes.flatMap((o) => (o.action === 'skipped' ? [{ ...base(o), reason: o.reason }] : []));
  return { resourceType: RESOURCE_TYPE, successful, failed, skipped, totalProcessed: outcomes.length };
}

export function toPublishResponse(result: PublishResult): PublishEnvironmentResponseDto {
  const results = [
    syncResult(result.outcomes.filter((o) => o.resourceType === 'workflow')),
    syncResult(result.outcomes.filter((o) => o.resourceType === 'layout')),
  ];
  const count = (part: 'successful' | 'failed' | 'skipped') => results.reduce((sum, r) => sum + r[part].length, 0);
  return {
    results,
    summary: { resources: result.outcomes.length, successful: count('successful'), failed: count('failed'), skipped: count('skipped') },
  };
}
