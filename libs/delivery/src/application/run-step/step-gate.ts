import { Inject, Injectable } from '@nestjs/common';
import { InvalidRequestError, applyJsonLogic, evaluateConditions, jsonLogicVariables } from '@app/kernel';
import {
  PREFERENCE_REPOSITORY,
  PreferenceRepository,
  ResolvedChannelPreferences,
  isWithinSchedule,
  nextScheduleWindow,
  resolveChannelPreferences,
} from '@app/subscribers';
import { DETAIL } from '../../domain/execution-detail';
import { TEMPLATE_RENDERER, TemplateRenderer } from '../../ports/template-renderer.port';
import { stepJob } from '../queues';
import { StepRecorder } from './channels/step-recorder';
import { PreviousSteps } from './previous-steps';
import { StepChain } from './step-chain';
import { StepContext, stepVariables } from './step-context';
import { StepTemplates } from './step-templates';
import type { WorkflowStep } from '@app/workflows';

const PREFERENCE_DETAIL = {
  workflow: DETAIL.STEP_FILTERED_BY_WORKFLOW_PREFERENCES,
  subscriber_global: DETAIL.STEP_FILTERED_BY_SUBSCRIBER_GLOBAL_PREFERENCES,
  subscriber_workflow: DETAIL.STEP_FILTERED_BY_SUBSCRIBER_WORKFLOW_PREFERENCES,
} as const;

/**
 * Whether a running step goes ahead: its filters, and for a channel step the subscriber's
 * preferences and quiet hours. A step held back is settled here — skipped (canceled, the chain
 * goes on) or deferred to the subscriber's schedule with a wake-up job — and answers false.
 */
@Injectable()
export class StepGate {
  /** Per workflow record (the cache hands out one per load): its preferences for a subscriber who set none, most deliveries. */
  private readonly workflowDefaults = new WeakMap<object, ResolvedChannelPreferences>();

  constructor(
    @Inject(PREFERENCE_REPOSITORY) private readonly preferences: PreferenceRepository,
    @Inject(TEMPLATE_RENDERER) private readonly renderer: TemplateRenderer,
    private readonly recorder: StepRecorder,
    private readonly chain: StepChain,
    private readonly previousSteps: PreviousSteps,
  ) {}

  /**
   * Step filters (v1), then the step's conditions (v2 `skip`). A filter value holding `{{…}}` is a
   * template rendered with the step's variables first (as Novu compiles it); a previous-step part
   * reads the messages that step sent, as they are now.
   */
  async passesFilters(context: StepContext): Promise<boolean> {
    return (await this.passesV1Filters(context)) && (await this.passesConditions(context));
  }

  private async passesV1Filters(context: StepContext): Promise<boolean> {
    // Most steps have none: no variables to build, no previous steps to read, nothing recorded.
    if (!context.step.filters?.length) return true;
    const templates = StepTemplates.of(this.renderer, context);
    const previousSteps = await this.previousSteps.states(context, context.step.filters);
    const filters = evaluateConditions(
      context.step.filters,
      { ...templates.variables, previousSteps },
      { resolveValue: (value) => resolveFilterValue(templates, value) },
    );
    if (!filters.passed) await this.skip(context, DETAIL.FILTER_STEPS, filters.details);
    return filters.passed;
  }

  /**
   * The step's conditions, as Novu's dashboard keeps them in `skip`: JSON Logic over the payload, the
   * subscriber and earlier steps (`steps.<stepId>`) that says when the step runs; when it does not
   * hold, the step is skipped (canceled, the chain goes on). A rule that cannot be evaluated fails the step.
   */
  private async passesConditions(context: StepContext): Promise<boolean> {
    const rule = context.step.skip;
    if (!rule || Object.keys(rule).length === 0) return true;
    const variables = stepVariables(context);
    let holds: boolean;
    try {
      holds = Boolean(applyJsonLogic(rule, variables, context.now));
    } catch (error) {
      throw new InvalidRequestError('invalid_step_condition', `The step's conditions cannot be evaluated: ${(error as Error).message}`, { skip: rule });
    }
    if (!holds) await this.skip(context, DETAIL.FILTER_STEPS, { skip: rule, variables: jsonLogicVariables(rule, variables) });
    return holds;
  }

  /**
   * The step as it runs: its first active variant whose filters pass (the same engine and
   * variables as step filters) in place of its own content, named in an execution detail; the
   * step itself when none passes. The variant keeps the step's id, so messages, overrides and
   * the chain still name the step.
   */
  async selectVariant(context: StepContext): Promise<WorkflowStep> {
    const { step } = context;
    if (!step.variants?.length) return step;
    const templates = StepTemplates.of(this.renderer, context);
    const previousSteps = await this.previousSteps.states(
      context,
      step.variants.flatMap((variant) => variant.filters),
    );
    const resolveValue = (value: string) => resolveFilterValue(templates, value);
    for (const variant of step.variants) {
      if (variant.active === false) continue;
      const result = evaluateConditions(variant.filters, { ...templates.variables, previousSteps }, { resolveValue });
      if (!result.passed) continue;
      this.recorder.detail(context, 'Success', DETAIL.STEP_VARIANT_SELECTED, {
        raw: { variantId: variant.id, variantUuid: variant.uuid, name: variant.name, conditions: result.details },
      });
      return {
        ...step,
        template: variant.template,
        metadata: variant.metadata ?? step.metadata,
        replyCallback: variant.replyCallback ?? step.replyCallback,
        variant: { id: variant.id, name: variant.name },
      };
    }
    return step;
  }

  /** Preferences turn a channel step off; quiet hours defer it, never drop it. */
  async passesPreferences(context: StepContext): Promise<boolean> {
    const { scope, job, workflow, subscriber, session } = context;
    const channel = job.type as keyof typeof PREFERENCE_DETAIL;
    const stored = await this.preferences.findForWorkflow(scope, subscriber.id, workflow.id);
    const resolved =
      stored.global || stored.workflow
        ? resolveChannelPreferences({ workflow, global: stored.global, subscriberWorkflow: stored.workflow })
        : this.defaultsOf(workflow);
    if (!resolved.enabled || !resolved.channels[job.type as 'email']) {
      const source = resolved.disabledBy ?? resolved.sources[channel as 'email'];
      await this.skip(context, PREFERENCE_DETAIL[source], { channel, sources: resolved.sources, ...(resolved.disabledBy ? { enabled: false } : {}) });
      return false;
    }
    // Quiet hours hold everything but in-app; critical workflows go through.
    const schedule = stored.global?.schedule;
    if (job.type === 'in_app' || workflow.critical || !schedule || isWithinSchedule(schedule, subscriber.timezone, context.now)) return true;
    const next = nextScheduleWindow(schedule, subscriber.timezone, context.now);
    if (!next) return true; // no window at all: deliver rather than hold forever
    const extension = (job.scheduleExtensionsCount ?? 0) + 1;
    session.transition(job.id, 'delayed', { runAt: next, scheduleExtensionsCount: extension });
    this.recorder.detail(context, 'Pending', DETAIL.STEP_DEFERRED_TO_SCHEDULE, {
      raw: { until: next.toISOString(), timezone: subscriber.timezone ?? 'UTC' },
    });
    session.enqueue(stepJob(`${job.id}:schedule:${extension}`, { jobId: job.id, phase: 'wake' }, Math.max(0, next.getTime() - context.now.getTime())));
    // Quiet hours hold this step only: the rest of the chain (an in-app step, say) goes on now,
    // unless a failure of this step must stop it, which only the deferred run can tell.
    if (!context.step.shouldStopOnFail) this.chain.handOn(session, job);
    return false;
  }

  private defaultsOf(workflow: StepContext['workflow']): ResolvedChannelPreferences {
    let resolved = this.workflowDefaults.get(workflow);
    if (!resolved) this.workflowDefaults.set(workflow, (resolved = resolveChannelPreferences({ workflow })));
    return resolved;
  }

  /** The step does not apply: canceled, with the reason, and the chain goes on. */
  private async skip(context: StepContext, detail: string, raw: unknown): Promise<void> {
    // The reason first: whoever sees the job canceled also finds why.
    this.recorder.detail(context, 'Success', detail, { raw });
    context.session.transition(context.job.id, 'canceled');
    this.chain.handOn(context.session, context.job);
  }
}

/** A filter value holding a template, rendered with the step's variables and its workflow's engine. */
function resolveFilterValue(templates: StepTemplates, value: string): string {
  return value.includes('{{') || value.includes('{%') ? (templates.render(value) ?? '') : value;
}
