import { ContextVariables } from '@app/contexts';
import { EnvironmentValue, envVariables } from '@app/environments';
import { EnvironmentScope } from '@app/kernel';
import { Subscriber } from '@app/subscribers';
import { Workflow, WorkflowStep, payloadWithDefaults, stepIdentifiers } from '@app/workflows';
import { Attempt } from '../../domain/attempt';
import { Job } from '../../domain/job';
import { TemplateTranslations, TemplateVariables } from '../../ports/template-renderer.port';
import type { ChainSession } from './chain-session';

/** Everything one run of one step needs, loaded once. */
export interface StepContext {
  scope: EnvironmentScope;
  job: Job;
  workflow: Workflow;
  step: WorkflowStep;
  subscriber: Subscriber;
  actor?: Subscriber;
  /** Where the step's effects on its chain go (jobs, messages, details, step jobs), written when it is flushed. */
  session: ChainSession;
  attempt: Attempt;
  now: Date;
  /** What the steps before this one handed on, by their stepId (`steps.<stepId>`); absent when none of them can. */
  steps?: Record<string, unknown>;
  /** The environment's variables (`env.<KEY>`), loaded when the workflow reads any. */
  env?: readonly EnvironmentValue[];
  /** The notification's contexts (`context.<type>`: `{id, data}`), loaded when the workflow reads any. */
  contexts?: ContextVariables;
  /** A channel step's translations (`{{ t.<key> }}`), in the subscriber's locale; absent outside a v2 workflow's channel steps. */
  translations?: TemplateTranslations;
}

/** What templates and filters see of a subscriber. */
export function subscriberVariables(subscriber: Subscriber): Record<string, unknown> {
  const { id, organizationId: _o, environmentId: _e, channels: _c, cleared, ...fields } = subscriber;
  // A field the caller set to null reads as null, as in Novu's stored subscriber.
  return { ...Object.fromEntries((cleared ?? []).map((field) => [field, null])), ...fields, _id: id };
}

/**
 * The variables a step's templates, filter values and conditions are rendered and evaluated with
 * (Novu's names): v1's `step.events` / `step.total_count` and, as Novu v2 names them, the digest's
 * events under `steps.<digest stepId>` (`events`, each `{payload}`, and `eventCount`); `env` (a
 * secret's value masked unless `revealSecrets`: only a request sent out, never shown, gets it) and
 * `context`.
 */
export function stepVariables(
  { job, subscriber, actor, workflow, steps, env, contexts }: Pick<StepContext, 'job' | 'subscriber' | 'actor' | 'workflow' | 'steps' | 'env' | 'contexts'>,
  revealSecrets = false,
): TemplateVariables {
  const events = job.digest?.events ?? [];
  const digestStepId = lastDigestBefore(workflow, job.stepId);
  return {
    payload: payloadWithDefaults(job.payload, workflow),
    subscriber: subscriberVariables(subscriber),
    actor: actor ? subscriberVariables(actor) : undefined,
    tenant: job.tenant,
    step: { digest: events.length > 0, events, total_count: events.length },
    steps: digestStepId ? { ...steps, [digestStepId]: digestOutput(events) } : (steps ?? {}),
    env: envVariables(env, revealSecrets),
    context: contexts ?? {},
  };
}

/** What a digest hands the steps after it, as Novu v2 shows it (`steps.<stepId>`). */
export function digestOutput(events: Record<string, unknown>[]): { events: { payload: Record<string, unknown> }[]; eventCount: number } {
  return { events: events.map((payload) => ({ payload })), eventCount: events.length };
}

/** The stepId of the last digest step before `stepId`: the one whose events a job carries. */
function lastDigestBefore(workflow: Pick<Workflow, 'steps'>, stepId: string): string | undefined {
  let digest: WorkflowStep | undefined;
  for (const step of workflow.steps) {
    if (step.id === stepId) break;
    if (step.template.type === 'digest') digest = step;
  }
  return digest ? stepIdentifiers(workflow.steps).get(digest.id) : undefined;
}
