import { AppConfig } from '@app/config';
import { FANOUT_QUEUE, FanOut, ReconcileTriggers, RecoverSteps, RunStep, STEPS_QUEUE } from '@app/delivery';
import { DeferredJobError, JobHandler, JobQueue, QueuedJob, RetryableJobError, StoreRejectedError, StoreUnavailableError } from '@app/kernel';
import { DeliveryProcessor } from './delivery.processor';
import { StoreOutage } from './store-outage';

describe('DeliveryProcessor', () => {
  const outages: StoreOutage[] = [];
  afterEach(() => outages.splice(0).forEach((outage) => outage.onModuleDestroy()));

  function processor(runStep: Partial<RunStep>, paused: boolean[] = []) {
    const handlers = new Map<string, { concurrency: number; handler: JobHandler<any> }>();
    const queue = {
      process: (name: string, options: { concurrency: number }, handler: JobHandler<any>) => handlers.set(name, { ...options, handler }),
      pause: async () => void paused.push(true),
      resume: async () => void paused.push(false),
    } as unknown as JobQueue;
    const outage = new StoreOutage(queue, [{ name: 'store', ping: async () => undefined }]);
    outages.push(outage);
    const subject = new DeliveryProcessor(
      queue,
      { workerConcurrency: 100, fanOutConcurrency: 40, recoveryAfterMs: 60_000 } as AppConfig,
      {} as FanOut,
      runStep as RunStep,
      {} as ReconcileTriggers,
      {} as RecoverSteps,
      outage,
    );
    subject.onApplicationBootstrap();
    subject.onModuleDestroy();
    return handlers;
  }
  const stepJob = (data: object, attemptsMade: number, attempts: number) =>
    ({ id: 'q-1', queueName: STEPS_QUEUE, data, attemptsMade, attempts }) as unknown as QueuedJob<any>;

  it('runs steps at the worker concurrency and fan-outs at their own', () => {
    const handlers = processor({});
    expect(handlers.get(FANOUT_QUEUE)?.concurrency).toBe(40);
    expect(handlers.get(STEPS_QUEUE)?.concurrency).toBe(100);
  });

  it('counts the attempt a fan-out made before the step reached the queue', async () => {
    const seen: object[] = [];
    const handlers = processor({
      execute: async ({ jobId, phase, attempt }) => void seen.push({ jobId, phase, made: attempt.made, allowed: attempt.allowed }),
    });
    await handlers.get(STEPS_QUEUE)!.handler(stepJob({ jobId: 'job-1', priorAttempts: 1 }, 2, 5));
    await handlers.get(STEPS_QUEUE)!.handler(stepJob({ jobId: 'job-2', phase: 'wake' }, 0, 6));
    expect(seen).toEqual([
      { jobId: 'job-1', phase: undefined, made: 3, allowed: 6 },
      { jobId: 'job-2', phase: 'wake', made: 0, allowed: 6 },
    ]);
  });

  it('records the failure where the API shows it on the last attempt, counting prior attempts', async () => {
    const gaveUp: string[] = [];
    const handlers = processor({
      execute: async () => {
        throw new Error('store down');
      },
      giveUp: async (jobId: string) => void gaveUp.push(jobId),
    });
    const handler = handlers.get(STEPS_QUEUE)!.handler;
    await expect(handler(stepJob({ jobId: 'early', priorAttempts: 1 }, 3, 5))).rejects.toBeInstanceOf(RetryableJobError);
    await expect(handler(stepJob({ jobId: 'last', priorAttempts: 1 }, 4, 5))).rejects.toBeInstanceOf(RetryableJobError);
    expect(gaveUp).toEqual(['last']);
  });

  it('ends a step the store refuses at once: failed where the API shows it, no retry', async () => {
    const gaveUp: string[] = [];
    const handlers = processor({
      execute: async () => {
        throw new StoreRejectedError('INSERT INTO messages: value too long', '22001');
      },
      giveUp: async (jobId: string, reason: string) => void gaveUp.push(`${jobId}: ${reason}`),
    });
    await expect(handlers.get(STEPS_QUEUE)!.handler(stepJob({ jobId: 'poison' }, 0, 6))).resolves.toBeUndefined();
    expect(gaveUp).toEqual(['poison: INSERT INTO messages: value too long']);
  });

  it('defers a step whose store does not answer, even on its last attempt: no attempt spent, no failure recorded, the queues paused until it answers', async () => {
    const gaveUp: string[] = [];
    const paused: boolean[] = [];
    let runs = 0;
    const handlers = processor(
      {
        execute: async () => {
          runs++;
          throw new StoreUnavailableError('SELECT 1: connect ECONNREFUSED 127.0.0.1:5432');
        },
        giveUp: async (jobId: string) => void gaveUp.push(jobId),
      },
      paused,
    );
    const handler = handlers.get(STEPS_QUEUE)!.handler;
    await expect(handler(stepJob({ jobId: 'last' }, 5, 6))).rejects.toBeInstanceOf(DeferredJobError);
    // While the outage lasts, a job is deferred without running.
    await expect(handler(stepJob({ jobId: 'next' }, 0, 6))).rejects.toBeInstanceOf(DeferredJobError);
    expect(runs).toBe(1);
    expect(gaveUp).toEqual([]);
    expect(paused).toEqual([true]);
    // The probe answers: the queues take jobs again.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(paused).toEqual([true, false]);
  });
});
