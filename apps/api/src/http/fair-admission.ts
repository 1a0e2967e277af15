import { DomainError } from '@app/kernel';

/** An environment already has as many requests waiting in this process as it may. */
export class AdmissionQueueFullError extends DomainError {
  constructor(limit: number) {
    super('overloaded', `Too many requests from this environment at once: ${limit} are already waiting; retry in a moment`, 'rate_limited');
  }
}

/** Lets a running request go; calling it again does nothing. */
export type Release = () => void;

/**
 * Admission of API requests by environment, so that one environment's load cannot queue another's
 * requests behind its own: each environment runs at most `maxInFlight` requests at once in this
 * process, and the rest of its requests wait in its own queue (at most `maxQueued`). A client
 * holding many connections open then waits on itself, and another environment's request competes
 * with `maxInFlight` of them at most, not with all. A slow request holds its own environment's
 * slots only. With maxInFlight 0 every request runs at once.
 */
export class FairAdmission {
  private readonly environments = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(
    private readonly maxInFlight: number,
    private readonly maxQueued: number,
  ) {}

  /** A release to call when the request is over: at once when the environment has a free slot, else when one frees. */
  acquire(key: string): Release | Promise<Release> {
    if (this.maxInFlight === 0) return () => undefined;
    let state = this.environments.get(key);
    if (!state) this.environments.set(key, (state = { running: 0, waiting: [] }));
    if (state.running < this.maxInFlight) return this.start(key, state);
    if (state.waiting.length >= this.maxQueued) throw new AdmissionQueueFullError(this.maxQueued);
    const waiting = state.waiting;
    return new Promise<Release>((resolve) => waiting.push(() => resolve(this.start(key, state))));
  }

  /** Requests of an environment running and waiting now. */
  loadOf(key: string): { running: number; waiting: number } {
    const state = this.environments.get(key);
    return { running: state?.running ?? 0, waiting: state?.waiting.length ?? 0 };
  }

  private start(key: string, state: { running: number; waiting: (() => void)[] }): Release {
    state.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      state.running--;
      const next = state.waiting.shift();
      if (next) next();
      else if (state.running === 0) this.environments.delete(key); // idle environments cost nothing
    };
  }
}
