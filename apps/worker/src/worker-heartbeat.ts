import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { rm, utimes, writeFile } from 'node:fs/promises';
import { APP_CONFIG, AppConfig } from '@app/config';
import { STEPS_QUEUE } from '@app/delivery';
import { JOB_QUEUE, JobQueue } from '@app/kernel';

const BEAT_EVERY_MS = 5_000;

/**
 * Liveness for containers: while the worker can reach its queue, it touches WORKER_HEARTBEAT_FILE
 * every few seconds; a health check calls the worker dead when the file grows old (queue lost,
 * event loop stuck, process gone).
 */
@Injectable()
export class WorkerHeartbeat implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WorkerHeartbeat.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const file = this.config.workerHeartbeatFile;
    if (!file) return;
    await this.beat(file);
    this.timer = setInterval(() => void this.beat(file), BEAT_EVERY_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    if (this.config.workerHeartbeatFile) await rm(this.config.workerHeartbeatFile, { force: true });
  }

  private async beat(file: string): Promise<void> {
    try {
      await this.queue.getCounts(STEPS_QUEUE); // a round trip to the queue: alive means consuming is possible
      const now = new Date();
      await utimes(file, now, now).catch(() => writeFile(file, ''));
    } catch (error) {
      this.logger.warn(`Heartbeat skipped: ${(error as Error).message}`);
    }
  }
}
