import { Inject, Injectable, Optional } from '@nestjs/common';
import { METRICS, Metrics, noopMetrics } from '@app/kernel';
import { stepMetadata } from '@app/workflows';
import { DETAIL } from '../../../domain/execution-detail';
import {
  DYNAMIC_THROTTLE_WINDOW_SHAPES,
  ThrottleSettings,
  throttleGroupValue,
  throttleThreshold,
  throttleWindowEnd,
  throttleWindowKey,
  throttleWindowLength,
} from '../../../domain/throttle';
import { StepRecorder } from '../channels/step-recorder';
import { StepContext } from '../step-context';
import { StepHandler } from '../step-handler';
import { StepOutcome } from '../step-outcome';
import { THROTTLE_WINDOW_REPOSITORY, ThrottleWindowRepository } from '../../../ports/throttle-window.repository.port';

/**
 * A throttle step: at most `threshold` runs of the step per subscriber (and throttleKey value) in a
 * window that the first run admitted after the previous window opens. Admitted runs complete and
 * the chain goes on; the others are skipped with the rest of their chain. The window is shared by
 * every worker, counted atomically in the store as it runs (not with the session); a rerun of the
 * same job is admitted or refused as the first time, never counted twice.
 */
@Injectable()
export class ThrottleStep implements StepHandler {
  constructor(
    private readonly recorder: StepRecorder,
    @Inject(THROTTLE_WINDOW_REPOSITORY) private readonly windows: ThrottleWindowRepository,
    @Optional() @Inject(METRICS) private readonly metrics: Metrics = noopMetrics,
  ) {}

  async run(context: StepContext): Promise<StepOutcome> {
    const { scope, job, step, workflow, now } = context;
    const settings: ThrottleSettings = stepMetadata(step, 'throttle') ?? {};
    const length = throttleWindowLength(settings, job.payload, now);
    if (!length) {
      // As Novu: a dynamic window the payload does not give throttles nothing.
      this.recorder.detail(context, 'Warning', DETAIL.THROTTLE_WINDOW_UNREADABLE, {
        raw: { dynamicKey: settings.dynamicKey, expected: DYNAMIC_THROTTLE_WINDOW_SHAPES },
      });
      return { kind: 'completed' };
    }
    const threshold = throttleThreshold(settings);
    const key = throttleWindowKey({ workflowId: workflow.id, stepId: step.id, subscriberId: job.subscriberId }, settings.throttleKey, job.payload);
    const decision = await this.windows.admit(scope, key, { jobId: job.id, threshold, at: now, endsAt: throttleWindowEnd(length, now) });
    this.metrics.throttle(decision.admitted ? 'admitted' : 'throttled');
    const raw = {
      throttled: !decision.admitted,
      executionCount: decision.count,
      threshold,
      windowStart: decision.openedAt.toISOString(),
      throttledUntil: decision.endsAt.toISOString(),
      ...(settings.throttleKey ? { throttleKey: settings.throttleKey, throttleValue: throttleGroupValue(settings.throttleKey, job.payload) ?? null } : {}),
    };
    if (!decision.admitted) {
      this.recorder.detail(context, 'Success', DETAIL.THROTTLE_LIMIT_EXCEEDED, { raw });
      return { kind: 'throttled' };
    }
    this.recorder.detail(context, 'Success', DETAIL.THROTTLE_PASSED, { raw });
    return { kind: 'completed' };
  }
}
