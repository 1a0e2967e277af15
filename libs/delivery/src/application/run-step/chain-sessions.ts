import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { CLOCK, Clock, JOB_QUEUE, NewJob } from '@app/kernel';
import { Job } from '../../domain/job';
import { Message } from '../../domain/message';
import { Notification } from '../../domain/notification';
import { CHAIN_REPOSITORY, ChainRepository, ChainWrite } from '../../ports/chain.repository.port';
import { IN_APP_DELIVERY_LISTENER, InAppDeliveryListener } from '../../ports/in-app-delivery-listener.port';
import { JOB_REPOSITORY, JobRepository } from '../../ports/job.repository.port';
import { PipelineQueue, STEPS_QUEUE, StepJobData } from '../queues';
import { ChainSession } from './chain-session';

const listenerLogger = new Logger('InAppDeliveryListener');

/**
 * Opens chain sessions and flushes them: each flush is one ChainRepository.write for every session
 * given (the fan-out's batch, or one job's session), then the step jobs they hold go to the queue
 * and the in-app messages they created are announced.
 */
@Injectable()
export class ChainSessions {
  private readonly flusher = async (session: ChainSession): Promise<boolean> => (await this.flush([session]))[0];

  constructor(
    @Inject(CHAIN_REPOSITORY) private readonly chains: ChainRepository,
    @Inject(JOB_REPOSITORY) private readonly jobs: JobRepository,
    @Inject(JOB_QUEUE) private readonly queue: PipelineQueue,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(IN_APP_DELIVERY_LISTENER) private readonly inAppListener?: InAppDeliveryListener,
  ) {}

  /** A session on a chain the fan-out has built and not written. */
  openNew(notification: Notification, jobs: Job[]): ChainSession {
    return ChainSession.ofNewChain(notification, jobs, this.clock, this.flusher);
  }

  /** A session on the stored chain of `jobId`, which it runs; null when there is no such job. */
  async openStored(jobId: string): Promise<ChainSession | null> {
    const chain = await this.jobs.findChain(jobId);
    return chain.some((job) => job.id === jobId) ? ChainSession.ofStoredChain(chain, jobId, this.clock, this.flusher) : null;
  }

  /** Writes what each session holds, in one write; whether each was written. */
  async flush(sessions: ChainSession[]): Promise<boolean[]> {
    const pending = sessions.map((session) => session.pendingWrite());
    const writes = pending.filter((write): write is ChainWrite => write !== undefined);
    const results = writes.length ? await this.chains.write(writes) : [];
    const byWrite = new Map(writes.map((write, index) => [write, results[index]]));
    const enqueue: NewJob<StepJobData>[] = [];
    const created: Message[] = [];
    const written = sessions.map((session, index) => {
      const write = pending[index];
      const result = write && byWrite.get(write);
      const outcome = session.written(write, result);
      enqueue.push(...outcome.enqueue);
      created.push(...outcome.created);
      return result?.written ?? session.holdsLead;
    });
    announce(this.inAppListener, created);
    if (enqueue.length) await this.queue.addBulk(STEPS_QUEUE, enqueue);
    return written;
  }
}

/**
 * Tells the listener of stored in-app messages without waiting for it: the delivery is done once the
 * message is stored, and an announcement (best effort, like the socket it feeds) never slows or fails it.
 */
function announce(listener: InAppDeliveryListener | undefined, messages: Message[]): void {
  const inApp = messages.filter((message) => message.channel === 'in_app' && message.status === 'sent');
  if (!listener || !inApp.length) return;
  void listener.delivered(inApp).catch((error) => listenerLogger.warn(`In-app delivery not announced: ${(error as Error).message}`));
}
