import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { DeferredJobError, HEALTH_PROBES, HealthProbe, JOB_QUEUE, JobQueue, StoreUnavailableError } from '@app/kernel';

/** How often the store is asked whether it is back. */
const PROBE_EVERY_MS = 1_000;
/** When a job that met the outage runs again; by then the queue is paused if the store is still away. */
const DEFER_MS = 2_000;

/**
 * What a worker does while its store cannot be reached: a queue job that meets StoreUnavailableError
 * (or starts during the outage) is deferred, run again later without spending one of its attempts,
 * and the process stops taking jobs (JobQueue.pause) until a probe finds the store answering again.
 * Nothing is failed for it, and nothing waits on a dead connection.
 */
@Injectable()
export class StoreOutage implements OnModuleDestroy {
  private readonly logger = new Logger('Store');
  private readonly probe?: HealthProbe;
  private since?: number;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(HEALTH_PROBES) probes: HealthProbe[],
  ) {
    this.probe = probes.find((probe) => probe.name === 'store');
  }

  /** True while the store is known not to answer. */
  get ongoing(): boolean {
    return this.since !== undefined;
  }

  /**
   * Runs a queue job's work; when the store does not answer, defers the job (DeferredJobError) and
   * pauses the queues until it does. Other errors pass through.
   */
  async run(work: () => Promise<void>): Promise<void> {
    if (this.ongoing) throw new DeferredJobError('The store cannot be reached; the job waits for it', DEFER_MS);
    try {
      await work();
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      this.begin(error);
      throw new DeferredJobError(error.detail, DEFER_MS);
    }
  }

  onModuleDestroy(): void {
    clearTimeout(this.timer);
  }

  private begin(error: StoreUnavailableError): void {
    if (this.ongoing) return;
    this.since = Date.now();
    this.logger.warn(`The store cannot be reached (${error.detail}): this process takes no queue job until it answers, and none is failed for it`);
    void this.queue.pause().catch((pauseError: Error) => this.logger.error(`Could not pause the queues: ${pauseError.message}`));
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    this.timer = setTimeout(() => void this.check(), PROBE_EVERY_MS);
    this.timer.unref();
  }

  private async check(): Promise<void> {
    try {
      await this.probe?.ping();
    } catch {
      return this.scheduleProbe();
    }
    try {
      await this.queue.resume();
    } catch (error) {
      this.logger.error(`Could not resume the queues: ${(error as Error).message}`);
      return this.scheduleProbe();
    }
    const seconds = ((Date.now() - (this.since ?? Date.now())) / 1000).toFixed(1);
    this.since = undefined;
    this.logger.log(`The store answers again after ${seconds} s: taking queue jobs again`);
  }
}
