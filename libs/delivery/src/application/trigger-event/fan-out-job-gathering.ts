/**
 * One fan-out job being gathered from acceptance batches: a batch joins it before its insert and
 * hands it the triggers it stored after. The job closes when no batch of it is still writing, so a
 * batch alone gets its job at once, while batches that overlap (a busy api) share one: a queue job
 * costs the worker as much as several deliveries. It takes no batch once it holds `maxTriggers`
 * or is `windowMs` old, which bounds how long its first trigger waits for the queue. Its id is
 * the first trigger's, so a trigger accepted alone has a job of its own id, as the reconciler's.
 * A batch whose insert hangs does not hold the others back past the hold (`expire`): the job goes
 * with the triggers written, and that batch's triggers, once written, go as jobs of their own.
 */
export class FanOutJobGathering {
  readonly triggerIds: string[] = [];
  private joined = 0;
  private writing = 0;
  private closed = false;
  private expired = false;

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

  /**
   * A joined batch has written: `stored`, the ids of its triggers that are new. `add`: this closed
   * the job (add it to the queue now); `late`: the job went without this batch (its triggers need
   * jobs of their own); `wait`: a batch of the job is still writing.
   */
  written(stored: string[]): 'add' | 'late' | 'wait' {
    this.writing--;
    if (this.expired) return 'late';
    this.triggerIds.push(...stored);
    if (this.writing > 0) return 'wait';
    this.closed = true;
    return 'add';
  }

  /** The hold is over. True when a batch is still writing: add the job now, with the triggers written so far. */
  expire(): boolean {
    if (this.closed) return false;
    this.closed = this.expired = true;
    return true;
  }
}
