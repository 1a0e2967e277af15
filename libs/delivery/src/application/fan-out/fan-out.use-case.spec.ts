import { JobQueue, NewJob, RetryableJobError, systemClock } from '@app/kernel';
import { Subscriber, SubscriberRepository, TopicRepository, UpdateSubscriberCredentials, UpsertSubscribers } from '@app/subscribers';
import { TenantRepository } from '@app/tenants';
import { Workflow, WorkflowRepository } from '@app/workflows';
import { Job } from '../../domain/job';
import { TriggerRecord } from '../../domain/trigger';
import { JobRepository } from '../../ports/job.repository.port';
import { NotificationRepository } from '../../ports/notification.repository.port';
import { TriggerRepository } from '../../ports/trigger.repository.port';
import { PIPELINE_JOB_OPTIONS, STEPS_QUEUE } from '../queues';
import { RunStep } from '../run-step/run-step.use-case';
import { FAN_OUT_BATCH_SIZE, FanOut, fanOutBatchSize } from './fan-out.use-case';

const scope = { organizationId: 'org', environmentId: 'env' };
const trigger = {
  id: 'trigger-1',
  ...scope,
  transactionId: 'txn-1',
  workflowId: 'wf-1',
  workflowIdentifier: 'welcome',
  to: ['ada'],
  payload: {},
  overrides: {},
  status: 'enqueued',
  createdAt: new Date(0),
  updatedAt: new Date(0),
} as unknown as TriggerRecord;
const workflow = {
  id: 'wf-1',
  ...scope,
  trigger: { identifier: 'welcome' },
  tags: [],
  critical: false,
  steps: [
    { id: 'step-1', active: true, template: { type: 'chat' } },
    { id: 'step-2', active: true, template: { type: 'in_app' } },
  ],
} as unknown as Workflow;
const ada = { id: 'sub-ada', ...scope, subscriberId: 'ada', channels: [] } as unknown as Subscriber;

/** FanOut alone: its stores are in-memory stand-ins, RunStep a stub that answers as told. */
function fanOut(runStep: (jobId: string) => Promise<void>, options: { alreadyInserted?: boolean } = {}) {
  const added: NewJob[] = [];
  const runs: { jobId: string; known: { job?: Job; subscriber?: Subscriber } }[] = [];
  const marked: string[] = [];
  const useCase = new FanOut(
    { findById: async () => trigger, markStatus: async (id: string) => marked.push(id) > 0 } as unknown as TriggerRepository,
    { findByIdOrIdentifier: async () => workflow } as unknown as WorkflowRepository,
    {} as SubscriberRepository,
    {} as TopicRepository,
    {} as TenantRepository,
    { insertMany: async (n: unknown[]) => n.length } as unknown as NotificationRepository,
    { insertMany: async (jobs: Job[]) => (options.alreadyInserted ? 0 : jobs.length) } as unknown as JobRepository,
    { add: async (_queue: string, job: NewJob) => void added.push({ ...job, queue: _queue } as NewJob) } as unknown as JobQueue,
    systemClock,
    { execute: async () => [{ subscriber: ada, created: false }] } as unknown as UpsertSubscribers,
    {} as UpdateSubscriberCredentials,
    {
      execute: async (command: { jobId: string }, known: { job?: Job; subscriber?: Subscriber }) => {
        runs.push({ jobId: command.jobId, known });
        await runStep(command.jobId);
      },
    } as unknown as RunStep,
  );
  return { useCase, added, runs, marked };
}

describe('FanOut', () => {
  it('runs the first step itself, from the rows it just wrote, and enqueues nothing when it succeeds', async () => {
    const { useCase, added, runs, marked } = fanOut(async () => undefined);
    await useCase.execute({ triggerId: trigger.id });
    expect(runs).toHaveLength(1);
    expect(runs[0].known.subscriber).toBe(ada);
    expect(runs[0].known.job).toMatchObject({ id: runs[0].jobId, stepId: 'step-1', status: 'queued' });
    expect(added).toEqual([]);
    expect(marked).toEqual([trigger.id]);
  });

  it('hands a step that asks for a retry to the steps queue as attempt 2, after the provider\'s wait', async () => {
    const { useCase, added, runs } = fanOut(async () => {
      throw new RetryableJobError('503', 7_000);
    });
    await useCase.execute({ triggerId: trigger.id });
    const { attempts, backoff } = PIPELINE_JOB_OPTIONS;
    expect(added).toEqual([
      { queue: STEPS_QUEUE, id: runs[0].jobId, data: { jobId: runs[0].jobId, priorAttempts: 1 }, delayMs: 7_000, backoff, attempts: attempts - 1 },
    ]);
  });

  it('hands an unexpected failure to the queue after the first backoff delay', async () => {
    const { useCase, added } = fanOut(async () => {
      throw new Error('store hiccup');
    });
    await useCase.execute({ triggerId: trigger.id });
    expect(added).toEqual([expect.objectContaining({ delayMs: PIPELINE_JOB_OPTIONS.backoff.delayMs, data: expect.objectContaining({ priorAttempts: 1 }) })]);
  });

  it('reads the job again when the fan-out is a redelivery (its rows existed already)', async () => {
    const { useCase, runs } = fanOut(async () => undefined, { alreadyInserted: true });
    await useCase.execute({ triggerId: trigger.id });
    expect(runs[0].known).toEqual({});
  });

  it('shrinks its batches as the payload grows, so a worker never holds hundreds of copies of a large one', () => {
    expect(fanOutBatchSize({ order: 1 })).toBe(FAN_OUT_BATCH_SIZE);
    expect(fanOutBatchSize({ blob: 'x'.repeat(400 * 1024) })).toBe(20);
    expect(fanOutBatchSize({ blob: 'x'.repeat(20 * 1024 * 1024) })).toBe(1);
  });
});
