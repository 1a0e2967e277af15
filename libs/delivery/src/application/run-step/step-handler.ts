import type { StepContext } from './step-context';
import type { StepOutcome } from './step-outcome';

/**
 * Runs one kind of step, once RunStep has loaded it, moved it to `running`, and let it through
 * its filters and the subscriber's preferences; `wake` is the second half of a step that waits
 * (delay, digest). Its writes go to the context's chain session, which RunStep's caller flushes.
 */
export interface StepHandler {
  run(context: StepContext): Promise<StepOutcome>;
  wake?(context: StepContext): Promise<StepOutcome>;
}
