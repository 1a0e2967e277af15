/** How a channel step ended, for RunStep to settle the job. */
export type StepOutcome =
  | { kind: 'completed'; providerId?: string }
  | { kind: 'skipped'; providerId?: string }
  | { kind: 'failed'; reason: string }
  /**
   * An integration used up its retries and a fallback integration is next: the step runs again
   * as a fresh queue job, so the fallback gets a whole retry budget of its own.
   */
  | { kind: 'failover'; queueJobId: string; delayMs?: number };
