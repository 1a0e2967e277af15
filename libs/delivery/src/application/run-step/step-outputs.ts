import { Workflow, stepIdentifiers } from '@app/workflows';
import { Job } from '../../domain/job';

/** Step types whose jobs hand later steps an output (`steps.<stepId>`). */
const OUTPUT_STEP_TYPES: ReadonlySet<string> = new Set(['http_request']);

/** Whether a step of the workflow before `stepId` can have handed this one an output: if none can, nothing needs reading. */
export function hasEarlierOutputs(workflow: Pick<Workflow, 'steps'>, stepId: string): boolean {
  for (const step of workflow.steps) {
    if (step.id === stepId) return false;
    if (OUTPUT_STEP_TYPES.has(step.template.type)) return true;
  }
  return false;
}

/**
 * The outputs of the jobs before `jobId` in its chain (`chain` in chain order), by their step's
 * stepId: what `steps.<stepId>` reads in templates and conditions.
 */
export function earlierStepOutputs(
  workflow: Pick<Workflow, 'steps'>,
  chain: readonly Pick<Job, 'id' | 'stepId' | 'output'>[],
  jobId: string,
): Record<string, unknown> {
  const identifiers = stepIdentifiers(workflow.steps);
  const outputs: Record<string, unknown> = {};
  for (const job of chain) {
    if (job.id === jobId) break;
    const identifier = identifiers.get(job.stepId);
    if (identifier !== undefined && job.output !== undefined) outputs[identifier] = job.output;
  }
  return outputs;
}
