import type { StepContext } from './step-context';
import type { StepOutcome } from './step-outcome';
import type { RunAheadWrites, StepWrites } from './step-writes';

/**
 * Runs one kind of step, once RunStep has loaded it, moved it to `running`, and let it through
 * its filters and the subscriber's preferences; `wake` is the second half of a step that waits
 * (delay, digest). Property signatures, not methods, so that TypeScript checks the context
 * strictly: a handler that needs StepWrites is no StepHandler<RunAheadWrites>, and an unwritten
 * chain can never reach it.
 */
export interface StepHandler<W extends RunAheadWrites = StepWrites> {
  readonly run: (context: StepContext<W>) => Promise<StepOutcome>;
  readonly wake?: (context: StepContext<W>) => Promise<StepOutcome>;
}
