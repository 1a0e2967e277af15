import { EnvironmentScope } from '@app/kernel';
import { Subscriber } from '@app/subscribers';
import { Workflow, WorkflowStep } from '@app/workflows';
import { Job } from '../../domain/job';
import { TemplateVariables } from '../../ports/template-renderer.port';
import type { StepWrites } from './step-writes';

/** Everything one run of one step needs, loaded once. */
export interface StepContext {
  scope: EnvironmentScope;
  job: Job;
  workflow: Workflow;
  step: WorkflowStep;
  subscriber: Subscriber;
  actor?: Subscriber;
  /** Where the step's effects go. */
  writes: StepWrites;
  /** Runs already used by the queue before this one. */
  attemptsMade: number;
  /** Total runs the queue allows. */
  attempts: number;
  now: Date;
}

/** What templates and filters see of a subscriber. */
export function subscriberVariables(subscriber: Subscriber): Record<string, unknown> {
  const { id, organizationId: _o, environmentId: _e, channels: _c, ...fields } = subscriber;
  return { ...fields, _id: id };
}

/** The variables a step's templates and its filter values are rendered with (Novu's names). */
export function stepVariables({ job, subscriber, actor }: StepContext): TemplateVariables {
  const events = job.digest?.events ?? [];
  return {
    payload: job.payload,
    subscriber: subscriberVariables(subscriber),
    actor: actor ? subscriberVariables(actor) : undefined,
    tenant: job.tenant,
    step: { digest: events.length > 0, events, total_count: events.length },
  };
}
