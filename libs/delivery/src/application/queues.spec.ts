import { JobQueue, QueuedJob } from '@app/kernel';
import { Attempt } from '../domain/attempt';
import { FANOUT_QUEUE, PIPELINE_JOB_OPTIONS, PipelineQueue, STEPS_QUEUE, StepJobData, attemptOf, firstAttempt, stepJob, stepRetryJob } from './queues';

const queued = <T>(data: T, attemptsMade: number, attempts: number) => ({ id: 'q-1', queueName: STEPS_QUEUE, data, attemptsMade, attempts }) as QueuedJob<T>;

describe('Attempt', () => {
  it('counts runs from 1, knows the last one, and moves on without changing the budget', () => {
    const first = Attempt.first(3);
    expect([first.number, first.isLast]).toEqual([1, false]);
    const last = first.next().next();
    expect([last.made, last.number, last.allowed, last.isLast]).toEqual([2, 3, 3, true]);
    expect(first.made).toBe(0);
  });
});

describe('pipeline queues', () => {
  it('counts a step the fan-out tried first, and handed to the queue, over one budget', () => {
    const handedOn = stepRetryJob('job-1', firstAttempt().next(), 7_000);
    expect(handedOn).toEqual({ id: 'job-1', data: { jobId: 'job-1', priorAttempts: 1 }, delayMs: 7_000, backoff: PIPELINE_JOB_OPTIONS.backoff, attempts: 5 });
    // the queue's own first run of that job is the whole budget's second, its last the sixth
    expect(attemptOf(queued(handedOn.data, 0, handedOn.attempts!))).toMatchObject({ made: 1, allowed: 6 });
    expect(attemptOf(queued(handedOn.data, 4, handedOn.attempts!)).isLast).toBe(true);
    expect(attemptOf(queued<StepJobData>({ jobId: 'job-2' }, 0, 6))).toMatchObject({ made: 0, allowed: 6 });
    expect(attemptOf(queued({ triggerIds: ['t-1'] }, 2, 6))).toMatchObject({ made: 2, allowed: 6 });
  });

  it('gives step jobs the pipeline retry budget, and a delay only when there is one', () => {
    expect(stepJob('job-1', { jobId: 'job-1' })).toEqual({ id: 'job-1', data: { jobId: 'job-1' }, ...PIPELINE_JOB_OPTIONS });
    expect(stepJob('job-1:wake', { jobId: 'job-1', phase: 'wake' }, 500)).toMatchObject({ delayMs: 500, attempts: PIPELINE_JOB_OPTIONS.attempts });
  });

  it("fixes each queue's payload by its name (checked by the compiler)", async () => {
    const added: string[] = [];
    const queue: PipelineQueue = { add: async (name: string) => void added.push(name) } as unknown as JobQueue; // any JobQueue is one
    await queue.add(STEPS_QUEUE, stepJob('job-1', { jobId: 'job-1' }));
    await queue.add(FANOUT_QUEUE, { id: 'f-1', data: { triggerIds: ['t-1'] } });
    // @ts-expect-error a step job on the fan-out queue
    await queue.add(FANOUT_QUEUE, stepJob('job-1', { jobId: 'job-1' }));
    // @ts-expect-error no such queue
    await queue.add('emails', { id: 'e-1', data: {} });
    expect(added).toEqual([STEPS_QUEUE, FANOUT_QUEUE, FANOUT_QUEUE, 'emails']);
  });
});
