import { EnvironmentScope } from '@app/kernel';
import { Subscriber } from '@app/subscribers';
import { Workflow, WorkflowStep, payloadWithDefaults } from '@app/workflows';
import { Attempt } from '../../domain/attempt';
import { Job } from '../../domain/job';
import { TemplateVariables } from '../../ports/template-renderer.port';
import type { RunAheadWrites, StepWrites } from './step-writes';

/**
 * Everything one run of one step needs, loaded once. `W` is what its writes may do: the store's
 * StepWrites, or RunAheadWrites for the in-app step the fan-out runs before writing its chain.
 */
export interface StepContext<W extends RunAheadWrites = StepWrites> {
  scope: EnvironmentScope;
  job: Job;
  workflow: Workflow;
  step: WorkflowStep;
  subscriber: Subscriber;
  actor?: Subscriber;
  /** Where the step's effects go. */
  writes: W;
  attempt: Attempt;
  now: Date;
  /** What the steps before this one handed on, by their stepId (`steps.<stepId>`); absent when none of them can. */
  steps?: Record<string, unknown>;
}

/** What templates and filters see of a subscriber. */
export function subscriberVariables(subscriber: Subscriber): Record<string, unknown> {
  const { id, organizationId: _o, environmentId: _e, channels: _c, cleared, ...fields } = subscriber;
  // A field the caller set to null reads as null, as in Novu's stored subscriber.
  return { ...Object.fromEntries((cleared ?? []).map((field) => [field, null])), ...fields, _id: id };
}

/** The variables a step's templates, filter values and conditions are rendered and evaluated with (Novu's names). */
export function stepVariables({
  job,
  subscriber,
  actor,
  workflow,
  steps,
}: Pick<StepContext<RunAheadWrites>, 'job' | 'subscriber' | 'actor' | 'workflow' | 'steps'>): TemplateVariables {
  const events = job.digest?.events ?? [];
  return {
    payload: payloadWithDefaults(job.payload, workflow),
    subscriber: subscriberVariables(subscriber),
    actor: actor ? subscriberVariables(actor) : undefined,
    tenant: job.tenant,
    step: { digest: events.length > 0, events, total_count: events.length },
    steps: steps ?? {},
  };
}
