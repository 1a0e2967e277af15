import { DeferredJobError, JobQueue, NewJob, RetryableJobError, StoreRejectedError, systemClock } from '@app/kernel';
import { Subscriber, SubscriberRepository, TopicRepository, UpdateSubscriberCredentials, UpsertSubscribers } from '@app/subscribers';
import { TenantRepository } from '@app/tenants';
import { Workflow, WorkflowRepository } from '@app/workflows';
import { TriggerRecord } from '../../domain/trigger';
import { ChainChanges, ChainRepository, ChainWrite, NewChain } from '../../ports/chain.repository.port';
import { Message } from '../../domain/message';
import { JobRepository } from '../../ports/job.repository.port';
import { TriggerRepository } from '../../ports/trigger.repository.port';
import { Attempt } from '../../domain/attempt';
import { FanOutJobData, PIPELINE_JOB_OPTIONS, STEPS_QUEUE } from '../queues';
import { RunStep } from '../run-step/run-step.use-case';
import { ChainSession } from '../run-step/chain-session';
import { ChainSessions } from '../run-step/chain-sessions';
import { BroadcastRecipients } from './broadcast-recipients';
import { FAN_OUT_BATCH_SIZE, FanOut, VENDOR_FAN_OUT_BATCH_SIZE, fanOutBatchSize } from './fan-out.use-case';
import { InlineRecipients } from './inline-recipients';
import { NotificationBatches } from './notification-batches';
import { TopicRecipients } from './topic-recipients';
import { InMemoryTopicRepository } from '../../../../../test/fakes/memory/in-memory-topic.repository';

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
  status: 'accepted',
  createdAt: new Date(0),
  updatedAt: new Date(0),
} as unknown as TriggerRecord;
const workflowOf = (...types: string[]) =>
  ({
    id: 'wf-1',
    ...scope,
    trigger: { identifier: 'welcome' },
    tags: [],
    critical: false,
    steps: types.map((type, index) => ({ id: `step-${index + 1}`, active: true, template: { type } })),
  }) as unknown as Workflow;
const workflow = workflowOf('delay', 'in_app');
const ada = { id: 'sub-ada', ...scope, subscriberId: 'ada', channels: [] } as unknown as Subscriber;

/** FanOut alone: its stores are in-memory stand-ins, RunStep a stub that answers as told. */
function fanOut(
  runStep: (jobId: string, session: ChainSession) => Promise<void>,
  options: {
    alreadyInserted?: boolean;
    workflow?: Workflow;
    trigger?: TriggerRecord;
    topics?: TopicRepository;
    subscribers?: SubscriberRepository;
    /** The subscribers the inline recipients upsert to (Ada alone unless given). */
    upserted?: Subscriber[];
  } = {},
) {
  const added: NewJob[] = [];
  const runs: { jobId: string; attempt: Attempt; subscriber?: Subscriber; session: ChainSession }[] = [];
  const marked: string[] = [];
  const written: NewChain[] = [];
  const changed: ChainChanges[] = [];
  const insertSizes: number[] = [];
  const queue = {
    add: async (name: string, job: NewJob) => void added.push({ ...job, queue: name } as NewJob),
    addBulk: async (name: string, jobs: NewJob[]) => void added.push(...jobs.map((job) => ({ ...job, queue: name }) as NewJob)),
  } as unknown as JobQueue;
  const triggers = { findById: async () => options.trigger ?? trigger, markStatus: async (id: string) => marked.push(id) > 0 } as unknown as TriggerRepository;
  const subscribers = options.subscribers ?? ({} as SubscriberRepository);
  const upsertSubscribers = {
    execute: async () => (options.upserted ?? [ada]).map((subscriber) => ({ subscriber, created: false })),
  } as unknown as UpsertSubscribers;
  const sessions = new ChainSessions(
    {
      write: async (writes: ChainWrite[]) => {
        const chains = writes.filter((write): write is NewChain => write.kind === 'new');
        changed.push(...writes.filter((write): write is ChainChanges => write.kind === 'changes'));
        if (chains.length) insertSizes.push(chains.length);
        if (!options.alreadyInserted) written.push(...chains);
        return writes.map((write) =>
          write.kind === 'changes'
            ? { written: true, moved: new Set([write.lead!, ...write.moves].map((move) => move.job.id)), messages: new Map() }
            : options.alreadyInserted
              ? { written: false, moved: new Set(), messages: new Map() }
              : {
                  written: true,
                  moved: new Set(write.jobs.map((job) => job.id)),
                  messages: new Map(write.messages.map((message) => [message.id, { message, created: true }])),
                },
        );
      },
    } as unknown as ChainRepository,
    {} as JobRepository,
    queue,
    systemClock,
  );
  const runStepStub = {
    runIn: async (session: ChainSession, command: { jobId: string; attempt: Attempt }, subscriber?: Subscriber) => {
      runs.push({ jobId: command.jobId, attempt: command.attempt, subscriber, session });
      await runStep(command.jobId, session);
    },
  } as unknown as RunStep;
  const batches = new NotificationBatches(triggers, queue, sessions, runStepStub);
  const useCase = new FanOut(
    triggers,
    { findByIdIncludingDeleted: async () => options.workflow ?? workflow } as unknown as WorkflowRepository,
    {} as TenantRepository,
    systemClock,
    upsertSubscribers,
    new InlineRecipients(upsertSubscribers, {} as UpdateSubscriberCredentials, batches),
    new TopicRecipients(options.topics ?? ({} as TopicRepository), subscribers, batches),
    new BroadcastRecipients(subscribers, batches),
  );
  return { useCase, added, runs, marked, written, changed, insertSizes };
}

describe('FanOut', () => {
  it('skips a topic member whose subscription turns the workflow off or whose condition the payload fails, unless another of its topics lets it through', async () => {
    const topics = new InMemoryTopicRepository();
    const now = new Date(0);
    let n = 0;
    const newId = () => `membership-${String(++n).padStart(3, '0')}`;
    const members = (...ids: string[]) => ids.map((subscriberId) => ({ subscriberInternalId: `sub-${subscriberId}`, subscriberId }));
    const { topic: news } = await topics.upsert({ id: 'topic-news', ...scope, key: 'news', createdAt: now, updatedAt: now });
    const { topic: vip } = await topics.upsert({ id: 'topic-vip', ...scope, key: 'vip', createdAt: now, updatedAt: now });
    await topics.addSubscriptions(news, members('on', 'off', 'gold', 'silver', 'other-workflow', 'both'), now, newId);
    await topics.addSubscriptions(vip, members('both'), now, newId);
    const prefer = (topicKey: string, subscriberId: string, preference: Record<string, unknown>) =>
      topics.updateSubscription(scope, topicKey, subscriberId, { preferences: [{ workflowId: 'wf-1', enabled: true, ...preference }] }, now);
    await prefer('news', 'on', { enabled: true });
    await prefer('news', 'off', { enabled: false });
    await prefer('news', 'gold', { condition: { '==': [{ var: 'payload.tier' }, 'gold'] } });
    await prefer('news', 'silver', { condition: { '==': [{ var: 'payload.tier' }, 'silver'] } });
    await topics.updateSubscription(scope, 'news', 'other-workflow', { preferences: [{ workflowId: 'wf-2', enabled: false }] }, now);
    await prefer('news', 'both', { enabled: false });
    await prefer('vip', 'both', { enabled: true });
    const read: string[][] = [];
    const subscribers = {
      findManyBySubscriberIds: async (_scope: unknown, ids: string[]) => {
        read.push(ids);
        return ids.map((subscriberId) => ({ id: `sub-${subscriberId}`, ...scope, subscriberId, channels: [] }));
      },
    } as unknown as SubscriberRepository;
    const topicTrigger = {
      ...trigger,
      to: [
        { type: 'Topic', topicKey: 'news' },
        { type: 'Topic', topicKey: 'vip' },
      ],
      payload: { tier: 'gold' },
    } as unknown as TriggerRecord;

    const { useCase, written, marked } = fanOut(async () => undefined, { trigger: topicTrigger, topics, subscribers });
    await useCase.execute({ triggerIds: [trigger.id] });
    expect(written.map((r) => r.notification.externalSubscriberId)).toEqual(['on', 'gold', 'other-workflow', 'both']);
    // one read of subscribers per page of members, never one per member
    expect(read).toEqual([['on', 'gold', 'other-workflow'], ['both']]);
    expect(marked).toEqual([trigger.id]);
  });

  it('runs the first step itself, against the chain it built, and enqueues nothing when it succeeds', async () => {
    const { useCase, added, runs, marked } = fanOut(async () => undefined);
    await useCase.execute({ triggerIds: [trigger.id] });
    expect(runs).toHaveLength(1);
    expect(runs[0].subscriber).toBe(ada);
    expect(runs[0].session.job(runs[0].jobId)).toMatchObject({ stepId: 'step-1', status: 'queued' });
    expect(runs[0].attempt).toMatchObject({ made: 0, allowed: PIPELINE_JOB_OPTIONS.attempts });
    expect(added).toEqual([]);
    expect(marked).toEqual([trigger.id]);
  });

  it('hands a first step that calls a vendor to the steps queue at once, and does not run it itself', async () => {
    const { useCase, added, runs, written } = fanOut(async () => undefined, { workflow: workflowOf('email', 'in_app') });
    await useCase.execute({ triggerIds: [trigger.id] });
    const [first] = written[0].jobs;
    expect(runs).toEqual([]);
    expect(added).toEqual([{ queue: STEPS_QUEUE, id: first.id, data: { jobId: first.id }, ...PIPELINE_JOB_OPTIONS }]);
  });

  /** Three subscribers, upserted inline: one batch of several. */
  const several = ['ada', 'bob', 'cy'].map((subscriberId) => ({ ...ada, id: `sub-${subscriberId}`, subscriberId }));
  const severalTrigger = { ...trigger, to: ['ada', 'bob', 'cy'] } as unknown as TriggerRecord;
  /** What ProviderDelivery does before its call: the job running, its message stored (a flush). */
  const storeMessage = async (jobId: string, session: ChainSession) => {
    session.transition(jobId, 'running');
    await session.storeMessage({ id: `message-of-${jobId}`, jobId, channel: 'email', status: 'warning', deliveredAt: [] } as unknown as Message);
  };

  it('runs a vendor step first in a batch of several itself: each chain stored with its message before the call, the outcomes in one write', async () => {
    const { useCase, added, runs, written, changed } = fanOut(
      async (jobId, session) => {
        await storeMessage(jobId, session);
        expect(written.map((chain) => chain.jobs[0].id)).toContain(jobId); // stored before the call
        session.transition(jobId, 'completed', { providerId: 'sendgrid' });
      },
      { workflow: workflowOf('email'), trigger: severalTrigger, upserted: several },
    );
    await useCase.execute({ triggerIds: [trigger.id] });
    expect(runs.map((run) => run.subscriber?.subscriberId)).toEqual(['ada', 'bob', 'cy']);
    expect(written.map((chain) => [chain.jobs[0].status, chain.messages.map((message) => message.id)])).toEqual(
      runs.map((run) => ['running', [`message-of-${run.jobId}`]]),
    );
    expect(changed.map((change) => [change.lead?.job.id, change.lead?.from, change.lead?.job.status])).toEqual(
      runs.map((run) => [run.jobId, 'running', 'completed']),
    );
    expect(added).toEqual([]);
  });

  it('hands a vendor step of a batch that asks for a retry after storing its chain to the queue as attempt 2, its move written with the others', async () => {
    const { useCase, added, runs, written, changed } = fanOut(
      async (jobId, session) => {
        await storeMessage(jobId, session);
        if (jobId === runs[1].jobId) {
          session.transition(jobId, 'queued', { attempts: 1 }); // as RunStep does before it rethrows
          throw new RetryableJobError('503', 7_000);
        }
        session.transition(jobId, 'completed');
      },
      { workflow: workflowOf('email'), trigger: severalTrigger, upserted: several },
    );
    await useCase.execute({ triggerIds: [trigger.id] });
    // the chain is not written again as built: the stored one carries on
    expect(written).toHaveLength(3);
    expect(changed.map((change) => change.lead?.job.status)).toEqual(['completed', 'queued', 'completed']);
    const { attempts, backoff } = PIPELINE_JOB_OPTIONS;
    expect(added).toEqual([
      { queue: STEPS_QUEUE, id: runs[1].jobId, data: { jobId: runs[1].jobId, priorAttempts: 1 }, delayMs: 7_000, backoff, attempts: attempts - 1 },
    ]);
  });

  it("hands a vendor step of a batch that waits for the integration's pace to the queue after the wait, no attempt spent", async () => {
    const { useCase, added, runs } = fanOut(
      async (jobId, session) => {
        await storeMessage(jobId, session);
        throw new DeferredJobError('over its rate limit', 400);
      },
      { workflow: workflowOf('sms'), trigger: severalTrigger, upserted: several },
    );
    await useCase.execute({ triggerIds: [trigger.id] });
    const { attempts, backoff } = PIPELINE_JOB_OPTIONS;
    expect(added).toEqual(
      runs.map((run) => ({ queue: STEPS_QUEUE, id: run.jobId, data: { jobId: run.jobId, priorAttempts: 0 }, delayMs: 400, backoff, attempts })),
    );
  });

  it('hands an HTTP request step first in a batch of several to the steps queue, and does not run it itself', async () => {
    const { useCase, added, runs } = fanOut(async () => undefined, { workflow: workflowOf('http_request'), trigger: severalTrigger, upserted: several });
    await useCase.execute({ triggerIds: [trigger.id] });
    expect(runs).toEqual([]);
    expect(added).toHaveLength(3);
  });

  it('hands a vendor step to the queue on a redelivery too (the queue drops a job id it holds already)', async () => {
    const { useCase, added, runs } = fanOut(async () => undefined, { workflow: workflowOf('chat'), alreadyInserted: true });
    await useCase.execute({ triggerIds: [trigger.id] });
    expect(runs).toEqual([]);
    expect(added).toEqual([expect.objectContaining({ queue: STEPS_QUEUE, data: { jobId: expect.any(String) } })]);
  });

  it("hands a step that asks for a retry to the steps queue as attempt 2, after the provider's wait", async () => {
    const { useCase, added, runs } = fanOut(async () => {
      throw new RetryableJobError('503', 7_000);
    });
    await useCase.execute({ triggerIds: [trigger.id] });
    const { attempts, backoff } = PIPELINE_JOB_OPTIONS;
    expect(added).toEqual([
      { queue: STEPS_QUEUE, id: runs[0].jobId, data: { jobId: runs[0].jobId, priorAttempts: 1 }, delayMs: 7_000, backoff, attempts: attempts - 1 },
    ]);
  });

  it('hands an unexpected failure to the queue after the first backoff delay', async () => {
    const { useCase, added } = fanOut(async () => {
      throw new Error('store hiccup');
    });
    await useCase.execute({ triggerIds: [trigger.id] });
    expect(added).toEqual([expect.objectContaining({ delayMs: PIPELINE_JOB_OPTIONS.backoff.delayMs, data: expect.objectContaining({ priorAttempts: 1 }) })]);
  });

  it('hands the first step to the steps queue when the fan-out is a redelivery (its rows existed already): it carries on from the store', async () => {
    const { useCase, runs, added } = fanOut(async () => undefined, { alreadyInserted: true });
    await useCase.execute({ triggerIds: [trigger.id] });
    expect(added).toEqual([{ queue: STEPS_QUEUE, id: runs[0].jobId, data: { jobId: runs[0].jobId }, ...PIPELINE_JOB_OPTIONS }]);
  });

  it('runs an in-app first step before writing, and writes the chain as the step left it in one go', async () => {
    const { useCase, added, runs, written } = fanOut(
      async (jobId, session) => {
        expect(written).toEqual([]); // nothing is written while the step runs
        session.transition(jobId, 'running');
        session.transition(jobId, 'completed', { providerId: 'novu' });
        const next = session.queueNext(jobId);
        session.enqueue({ id: next!.id, data: { jobId: next!.id } });
      },
      { workflow: workflowOf('in_app', 'chat') },
    );
    await useCase.execute({ triggerIds: [trigger.id] });
    expect(runs).toHaveLength(1);
    expect(written).toHaveLength(1);
    expect(written[0].jobs.map((job) => job.status)).toEqual(['completed', 'queued']);
    // the queue hears of the next job only once its row exists
    expect(added).toEqual([{ queue: STEPS_QUEUE, id: written[0].jobs[1].id, data: { jobId: written[0].jobs[1].id } }]);
  });

  it('writes a chain as built, what its failed first step did left out, and hands the step to the queue', async () => {
    const { useCase, runs, written, added } = fanOut(
      async (jobId, session) => {
        session.transition(jobId, 'running');
        throw new Error('renderer crashed');
      },
      { workflow: workflowOf('in_app') },
    );
    await useCase.execute({ triggerIds: [trigger.id] });
    expect(written[0].jobs.map((job) => job.status)).toEqual(['queued']);
    expect(added).toEqual([expect.objectContaining({ queue: STEPS_QUEUE, id: runs[0].jobId, data: { jobId: runs[0].jobId, priorAttempts: 1 } })]);
  });

  it('delivers nothing for a trigger whose workflow has been deleted since it was accepted', async () => {
    const { useCase, runs, marked, written } = fanOut(async () => undefined, { workflow: { ...workflow, deletedAt: new Date() } });
    await useCase.execute({ triggerIds: [trigger.id] });
    expect(runs).toEqual([]);
    expect(written).toEqual([]);
    expect(marked).toEqual([trigger.id]);
  });

  it('fans out every trigger of its job, and fails (for a retry) when one of them failed', async () => {
    const { useCase, marked } = fanOut(async () => undefined);
    await useCase.execute({ triggerIds: [trigger.id, trigger.id] });
    expect(marked).toEqual([trigger.id, trigger.id]);
    // a job queued by a version that gave each trigger its own job
    await useCase.execute({ triggerId: trigger.id } as unknown as FanOutJobData);
    expect(marked).toEqual([trigger.id, trigger.id, trigger.id]);
    const failing = fanOut(async () => undefined);
    (failing.useCase as unknown as { triggers: { findById: (id: string) => Promise<unknown> } }).triggers.findById = async (id: string) => {
      if (id === 'broken') throw new Error('store hiccup');
      return trigger;
    };
    await expect(failing.useCase.execute({ triggerIds: [trigger.id, 'broken'] })).rejects.toThrow('store hiccup');
    expect(failing.marked).toEqual([trigger.id]); // the other trigger still went through
  });

  it('marks a trigger the store refuses as failed, for good, without failing the others of its job', async () => {
    const poisoned = fanOut(async () => undefined);
    const statuses: string[] = [];
    const triggers = (
      poisoned.useCase as unknown as {
        triggers: { findById: (id: string) => Promise<unknown>; markStatus: (id: string, from: string[], to: string) => Promise<boolean> };
      }
    ).triggers;
    triggers.findById = async (id: string) => {
      if (id === 'poison') throw new StoreRejectedError('index row size 10016 exceeds btree version 4 maximum 2704', '54000');
      return trigger;
    };
    triggers.markStatus = async (id: string, _from: string[], to: string) => statuses.push(`${id}:${to}`) > 0;
    await expect(poisoned.useCase.execute({ triggerIds: [trigger.id, 'poison'] })).resolves.toBeUndefined();
    expect(statuses.sort()).toEqual(['poison:failed', `${trigger.id}:processed`].sort());
  });

  it('writes several inline recipients of a large payload in batches its size allows, and a lone one at once', async () => {
    const payload = { blob: 'x'.repeat(3 * 1024 * 1024) }; // 8 MB of copies a batch: two recipients
    const people = ['ada', 'bob', 'cy'].map((subscriberId) => ({ ...ada, id: `sub-${subscriberId}`, subscriberId }));
    const three = fanOut(async () => undefined, { trigger: { ...trigger, to: ['ada', 'bob', 'cy'], payload }, upserted: people });
    await three.useCase.execute({ triggerIds: [trigger.id] });
    expect(three.insertSizes).toEqual([2, 1]);
    const one = fanOut(async () => undefined, { trigger: { ...trigger, payload } });
    await one.useCase.execute({ triggerIds: [trigger.id] });
    expect(one.insertSizes).toEqual([1]);
  });

  it("reads a topic in batches of at most VENDOR_FAN_OUT_BATCH_SIZE when its chains start with a vendor's step", async () => {
    const pages: number[] = [];
    const topics = {
      findByKey: async () => ({ id: 'topic-news', key: 'news' }),
      listMembersFor: async (_scope: unknown, _key: string, _workflowId: string, _cursor: string | null, limit: number) => {
        pages.push(limit);
        return { members: [], next: null };
      },
    } as unknown as TopicRepository;
    const topicTrigger = { ...trigger, to: [{ type: 'Topic', topicKey: 'news' }] } as unknown as TriggerRecord;
    for (const type of ['email', 'in_app'])
      await fanOut(async () => undefined, { workflow: workflowOf(type), trigger: topicTrigger, topics }).useCase.execute({ triggerIds: [trigger.id] });
    expect(pages).toEqual([VENDOR_FAN_OUT_BATCH_SIZE, FAN_OUT_BATCH_SIZE]);
  });

  it('shrinks its batches as the payload grows, so a worker never holds hundreds of copies of a large one', () => {
    expect(fanOutBatchSize({ order: 1 })).toBe(FAN_OUT_BATCH_SIZE);
    expect(fanOutBatchSize({ blob: 'x'.repeat(400 * 1024) })).toBe(20);
    expect(fanOutBatchSize({ blob: 'x'.repeat(20 * 1024 * 1024) })).toBe(1);
  });
});
