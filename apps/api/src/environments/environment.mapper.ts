import { Environment, environmentType } from '@app/environments';
import { EnvironmentDiff, PublishResult, StepChange, WorkflowDiff } from '@app/workflows';
import { DiffEnvironmentResponseDto, EnvironmentResponseDto, PublishEnvironmentResponseDto, ResourceDiffDto, ResourceDiffResultDto } from './environment.dto';

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
 * enum of that name), so Novu's own `workflow`/`step` would fail every SDK call.
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

function resourceOf(diff: WorkflowDiff): ResourceDiffResultDto {
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
  const summary = { added: 0, modified: 0, deleted: 0, unchanged: 0 };
  if (diff.action === 'modified') summary.modified = 1;
  else for (const change of changes) summary[change.action === 'moved' ? 'modified' : (change.action as keyof typeof summary)] += 1;
  return { resourceType: RESOURCE_TYPE, sourceResource, targetResource, changes, summary, dependencies: [] };
}

export function toDiffResponse(diff: EnvironmentDiff): DiffEnvironmentResponseDto {
  const totalChanges = diff.workflows.filter((w) => w.action !== 'unchanged').length;
  return {
    sourceEnvironmentId: diff.source.environmentId,
    targetEnvironmentId: diff.target.environmentId,
    resources: diff.workflows.map(resourceOf),
    summary: { totalEntities: diff.workflows.length, totalChanges, hasChanges: totalChanges > 0 },
  };
}

export function toPublishResponse(result: PublishResult): PublishEnvironmentResponseDto {
  const base = (o: PublishResult['outcomes'][number]) => ({ resourceType: RESOURCE_TYPE, resourceId: o.workflowId, resourceName: o.name });
  const successful = result.outcomes.flatMap((o) =>
    o.action === 'created' || o.action === 'updated' || o.action === 'deleted' ? [{ ...base(o), action: o.action }] : [],
  );
  const failed = result.outcomes.flatMap((o) => (o.action === 'failed' ? [{ ...base(o), error: o.error }] : []));
  const skipped = result.outcomes.flatMap((o) => (o.action === 'skipped' ? [{ ...base(o), reason: o.reason }] : []));
  const totalProcessed = result.outcomes.length;
  return {
    results: [{ resourceType: RESOURCE_TYPE, successful, failed, skipped, totalProcessed }],
    summary: { resources: totalProcessed, successful: successful.length, failed: failed.length, skipped: skipped.length },
  };
}
