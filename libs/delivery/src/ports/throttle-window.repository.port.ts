import { EnvironmentScope } from '@app/kernel';

/** A run of a throttle step asking into its window. */
export interface ThrottleRequest {
  /** The run's job: admitting the same job again answers as the first time, counting it once. */
  jobId: string;
  /** Runs the window admits. */
  threshold: number;
  /** When the run asks. */
  at: Date;
  /** When the window ends if this run opens it. */
  endsAt: Date;
}

/** The window's answer to a run. */
export interface ThrottleDecision {
  admitted: boolean;
  /** Runs the window has admitted, this one included when it was. */
  count: number;
  openedAt: Date;
  endsAt: Date;
}

/**
 * Throttle windows, one per (environment, key): a window opens with the first run admitted after the
 * previous one ended and admits runs until it holds `threshold` of them. `admit` is one atomic write,
 * so concurrent runs in any number of processes never get more than `threshold` admitted.
 */
export interface ThrottleWindowRepository {
  /**
   * Admits the job into the key's open window if it holds fewer than `threshold` runs, or opens a new
   * window (from `at` to `endsAt`) with it when there is none or the last one ended at or before `at`.
   * A job already in the open window is admitted again without counting twice.
   */
  admit(scope: EnvironmentScope, key: string, request: ThrottleRequest): Promise<ThrottleDecision>;
  /** Retention: deletes up to `limit` windows that ended before `before`; answers how many went. */
  deleteOlderThan(before: Date, limit: number): Promise<number>;
}
export const THROTTLE_WINDOW_REPOSITORY = Symbol('ThrottleWindowRepository');
