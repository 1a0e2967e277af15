import { EnvironmentScope } from '@app/kernel';
import { Subscriber } from '@app/subscribers';
import { Workflow, WorkflowStep } from '@app/workflows';
import { Job } from '../../domain/job';

/** Everything one run of one step needs, loaded once. */
export interface StepContext {
  scope: EnvironmentScope;
  job: Job;
  workflow: Workflow;
  step: WorkflowStep;
  subscriber: Subscriber;
  actor?: Subscriber;
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
