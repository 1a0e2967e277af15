/** How a step's run ended, for RunStep to settle the job and the rest of its chain. */
export type StepOutcome =
  /** Done (a channel step delivered, a throttle step let the run through): the job completes, the chain goes on. */
  | { kind: 'completed'; providerId?: string }
  /** Nothing to deliver to (no address, no channel): the job is canceled, the chain goes on. */
  | { kind: 'skipped'; providerId?: string }
  /** Failed for good, already recorded: the chain goes on or stops as the step says. */
  | { kind: 'failed'; reason: string; providerId?: string }
  /**
   * An integration used up its retries and a fallback integration is next: the step runs again
   * as a fresh queue job, so the fallback gets a whole retry budget of its own.
   */
  | { kind: 'failover'; queueJobId: string; delayMs?: number }
  /** The handler ended the job itself (a delay or digest that fired): the chain goes on, the steps after a digest seeing its events. */
  | { kind: 'ended'; digestEvents?: Record<string, unknown>[] }
  /** The job waits for a wake-up the handler added to the queue (a delay, a digest window): nothing more now. */
  | { kind: 'waiting' }
  /** A digest merged into another notification's open digest: that one carries on, the rest of this chain is canceled. */
  | { kind: 'merged' }
  /** A throttle step over its limit, already recorded: the job and the rest of its chain are skipped (as Novu). */
  | { kind: 'throttled' };
