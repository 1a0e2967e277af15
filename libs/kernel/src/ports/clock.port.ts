/** Everything time-based reads the clock, so tests can move time instead of sleeping. */
export interface Clock {
  now(): Date;
}
export const CLOCK = Symbol('Clock');

export const systemClock: Clock = { now: () => new Date() };
