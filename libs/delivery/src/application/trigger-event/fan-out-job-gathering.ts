/**
 * One fan-out job being gathered from acceptance batches: a batch joins it before its insert and
 * hands it the triggers it stored after. The job closes when no batch of it is still writing, so a
 * batch alone gets its job at once, while batches that overlap (a busy api) share one: a queue job
 * costs the worker as much as several deliveries. It takes no batch once it holds `maxTriggers`
 * or is `windowMs` old, which bounds how long its first trigger waits for the queue. Its id is
 * the first trigger's, so a trigger accepted alone has a job of its own id, as the reconciler's.
 */
export class FanOutJobGathering {
  readonly triggerIds: string[] = [];
  private joined = 0;
  private writing = 0;
  private closed = false;

  constructor(
    readonly id: string,
    private readonly openedAt: number,
    private readonly maxTriggers: number,
    private readonly windowMs: number,
  ) {}

  /** Whether a batch of `count` triggers may join at `now`. */
  takes(count: number, now: number): boolean {
    return !this.closed && this.joined + count <= this.maxTriggers && now - this.openedAt < this.windowMs;
  }

  join(count: number): void {
    this.joined += count;
    this.writing++;
  }

  /** A joined batch has written: `stored`, the ids of its triggers that are new. True when this closed the job (add it to the queue then). */
  written(stored: string[]): boolean {
    this.triggerIds.push(...stored);
    this.writing--;
    if (this.writing > 0) return false;
    this.closed = true;
    return true;
  }
}
