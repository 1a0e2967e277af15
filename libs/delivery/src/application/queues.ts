/** Queue names of the delivery pipeline: one per stage. */
export const FANOUT_QUEUE = 'fanout';
export const STEPS_QUEUE = 'steps';

/** The triggers one fan-out job delivers: those one api process accepted together. */
export interface FanOutJobData {
  triggerIds: string[];
}

export interface StepJobData {
  jobId: string;
  /** `wake`: a delay, digest window or schedule deferral has elapsed. */
  phase?: 'run' | 'wake';
  /** Attempts made before this queue job existed (a first step tried inline by the fan-out). */
  priorAttempts?: number;
}

/** Fan-out and step jobs retry transient failures (store or network hiccups) with backoff. */
export const PIPELINE_JOB_OPTIONS = { attempts: 6, backoff: { type: 'exponential' as const, delayMs: 1_000 } };
