import {
  ChainChanges,
  ChainRepository,
  ExecutionDetailRepository,
  Job,
  JobRepository,
  JobStatus,
  MessageRepository,
  NewChain,
  NotificationRepository,
} from '@app/delivery';
import { newId } from '@app/kernel';
import { REPOSITORY_STORES, RepositoryStoreFixture } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';
import { executionDetail, jobChain, message, newScope, notification, tick } from './delivery-fixtures';

interface Repositories {
  chains: ChainRepository;
  notifications: NotificationRepository;
  jobs: JobRepository;
  details: ExecutionDetailRepository;
  messages: MessageRepository;
  close(): Promise<void>;
}

type Scope = ReturnType<typeof newScope>;

/** A new chain of these step types as the fan-out builds it: the first job queued, the others pending. */
const built = (scope: Scope, ...types: Job['type'][]): NewChain => {
  const n = notification(scope);
  const jobs = jobChain(n, types).map((j, index) => (index === 0 ? { ...j, status: 'queued' as const } : j));
  return { kind: 'new', notification: n, jobs, messages: [], details: [] };
};

/** A new chain whose first step ran before it was written: completed with its message and detail, the next queued. */
const ran = (scope: Scope): NewChain => {
  const chain = built(scope, 'in_app', 'chat');
  const [first, second] = chain.jobs;
  const jobs = [
    { ...first, status: 'completed' as const, providerId: 'novu' },
    { ...second, status: 'queued' as const },
  ];
  return { ...chain, jobs, messages: [message(jobs[0])], details: [executionDetail(jobs[0], { detail: 'Message sent' })] };
};

/** Changes to a stored chain: nothing but what is given. */
const changes = (chain: NewChain, given: Partial<ChainChanges>): ChainChanges => ({
  kind: 'changes',
  notificationId: chain.notification.id,
  moves: [],
  messages: [],
  deliveries: [],
  details: [],
  ...given,
});

/** A job of the chain moved on from `from`, as a session leaves it. */
const moved = (job: Job, from: JobStatus, change: Partial<Job>) => ({ job: { ...job, ...change, updatedAt: tick() }, from });

/** The ChainRepository contract (with JobRepository.findChain, which opens a session on a stored chain); every store adapter must pass it. */
function chainsContract(open: () => Promise<Repositories>) {
  let chains: ChainRepository;
  let notifications: NotificationRepository;
  let jobs: JobRepository;
  let details: ExecutionDetailRepository;
  let messages: MessageRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ chains, notifications, jobs, details, messages, close } = await open()));
  afterAll(() => close());

  const written = async (...writes: Parameters<ChainRepository['write']>[0]) => (await chains.write(writes)).map((result) => result.written);

  describe('new chains', () => {
    it('writes a notification with its jobs, messages and details, and a notification that exists brings none of its rows again', async () => {
      const scope = newScope();
      const a = ran(scope);
      const b = ran(scope);
      const [first] = await chains.write([a]);
      expect(first.written).toBe(true);
      expect([...first.moved]).toEqual(a.jobs.map((j) => j.id));
      expect([...first.messages.values()]).toEqual([{ message: a.messages[0], created: true }]);
      expect(await notifications.findById(scope, a.notification.id)).toEqual(a.notification);
      expect(await jobs.findByNotificationIds(scope, [a.notification.id])).toEqual(a.jobs);
      expect(await messages.findByJobId(a.jobs[0].id)).toEqual(a.messages);
      expect(await details.listByJobIds(scope, [a.jobs[0].id])).toEqual(a.details);

      // a again (a redelivered fan-out, with a fresh detail id and other statuses) beside the new b
      const again: NewChain = { ...a, jobs: a.jobs.map((j) => ({ ...j, status: 'queued' })), details: [executionDetail(a.jobs[0])] };
      const [refused, other] = await chains.write([again, b]);
      expect(refused).toEqual({ written: false, moved: new Set(), messages: new Map() });
      expect(other.written).toBe(true);
      expect((await jobs.findByNotificationIds(scope, [a.notification.id])).map((j) => j.status)).toEqual(['completed', 'queued']);
      expect(await details.listByJobIds(scope, [a.jobs[0].id])).toEqual(a.details);
      expect(await jobs.findByNotificationIds(scope, [b.notification.id])).toEqual(b.jobs);
      expect(await chains.write([])).toEqual([]);
    });

    it("keeps a job's and a message's own values where they differ from their notification's", async () => {
      const scope = newScope();
      const n = notification(scope, { payload: { order: 1 }, tags: ['a'] });
      const [first] = jobChain(n, ['in_app']).map((j) => ({
        ...j,
        payload: { order: 2 },
        workflowIdentifier: 'renamed',
        createdAt: new Date(j.createdAt.getTime() + 5),
      }));
      const own = message(first, { payload: { order: 3 }, templateIdentifier: 'other', tags: undefined, transactionId: n.transactionId });
      await chains.write([{ kind: 'new', notification: n, jobs: [first], messages: [own], details: [] }]);
      expect(await jobs.findByNotificationIds(scope, [n.id])).toEqual([first]);
      expect(await messages.findByJobId(first.id)).toEqual([own]);
    });

    it('reads back the values a first job written finished or its details may leave out, whether they are the usual ones or not', async () => {
      const scope = newScope();
      const usual = ran(scope);
      const n = notification(scope);
      const [first] = jobChain(n, ['in_app']).map((j) => ({ ...j, status: 'completed' as const, attempts: 2, overrides: { in_app: { title: 'x' } } }));
      const flagged = executionDetail(first, { raw: '{"a":1}', isRetry: true, isTest: true });
      await chains.write([usual, { kind: 'new', notification: n, jobs: [first], messages: [], details: [flagged] }]);
      expect(await jobs.findById(usual.jobs[0].id)).toEqual(usual.jobs[0]);
      expect(await details.listByJobIds(scope, [usual.jobs[0].id])).toEqual(usual.details);
      expect(await jobs.findById(first.id)).toEqual(first);
      expect(await details.listByJobIds(scope, [first.id])).toEqual([flagged]);
    });

    it('gives a notification raced by concurrent callers to the first, with its rows only', async () => {
      const scope = newScope();
      const first = ran(scope);
      const second: NewChain = { ...first, details: [executionDetail(first.jobs[0], { detail: 'from the second caller' })] };
      const other = ran(scope);
      const [one, two] = await Promise.all([written(first), written(second, other)]);
      expect(one).toEqual([true]);
      expect(two).toEqual([false, true]);
      expect(await details.listByJobIds(scope, [first.jobs[0].id])).toEqual(first.details);
    });
  });

  describe('findChain', () => {
    it("reads the whole chain of a job's notification in chain order, wherever each job is kept", async () => {
      const scope = newScope();
      const a = ran(scope);
      const b = built(scope, 'delay', 'email', 'sms');
      await chains.write([a, b]);
      const [chainOfFirst, chainOfSecond, chainOfLast, none] = await Promise.all([
        jobs.findChain(a.jobs[0].id),
        jobs.findChain(a.jobs[1].id),
        jobs.findChain(b.jobs[2].id),
        jobs.findChain(newId()),
      ]);
      expect(chainOfFirst).toEqual(a.jobs);
      expect(chainOfSecond).toEqual(a.jobs);
      expect(chainOfLast).toEqual(b.jobs);
      expect(none).toEqual([]);
    });
  });

  describe('changes to a stored chain', () => {
    it("writes the lead's move with the fields it changed, the next job queued, messages, deliveries, details and the digest link", async () => {
      const scope = newScope();
      const chain = built(scope, 'email', 'in_app');
      const [lead, next] = chain.jobs;
      await chains.write([chain]);
      const sent = message(lead, { id: `${lead.id}-sms`, channel: 'email', status: 'warning', errorText: 'Not delivered yet', providerId: 'sendgrid' });
      const running = moved(lead, 'queued', { status: 'running', attempts: 1 });
      const [claimed] = await chains.write([
        changes(chain, { lead: running, messages: [sent], details: [executionDetail(lead, { detail: 'Provider selected' })] }),
      ]);
      expect(claimed).toEqual({ written: true, moved: new Set([lead.id]), messages: new Map([[sent.id, { message: sent, created: true }]]) });

      const deliveredAt = tick();
      const delivered = { ...sent, status: 'sent' as const, identifier: 'vendor-1', deliveredAt: [deliveredAt], errorText: undefined, updatedAt: deliveredAt };
      const done = moved(running.job, 'running', { status: 'completed', providerId: 'sendgrid', runAt: undefined, output: { ok: true } });
      const queued = moved(next, 'pending', { status: 'queued', digest: { events: [{ order: 1 }] } });
      const [ended] = await chains.write([
        changes(chain, {
          lead: done,
          moves: [queued],
          deliveries: [delivered],
          details: [executionDetail(lead, { detail: 'Message sent' })],
          digestedInto: 'master',
        }),
      ]);
      expect(ended.written).toBe(true);
      expect(ended.moved).toEqual(new Set([lead.id, next.id]));
      expect(await jobs.findChain(lead.id)).toEqual([done.job, queued.job]);
      expect(await messages.findByJobId(lead.id)).toEqual([delivered]);
      expect((await details.listByJobIds(scope, [lead.id])).map((d) => d.detail)).toEqual(['Provider selected', 'Message sent']);
      expect((await notifications.findById(scope, chain.notification.id))?.digestedNotificationId).toBe('master');
    });

    it("writes nothing of a write whose lead's move does not hold, and each other move only where it holds", async () => {
      const scope = newScope();
      const chain = built(scope, 'in_app', 'chat', 'sms');
      const [lead, second, third] = chain.jobs;
      await chains.write([chain]);
      const inApp = message(lead);
      // another run moved the lead first: this one's records never go in
      const [late] = await chains.write([
        changes(chain, {
          lead: moved(lead, 'running', { status: 'completed' }),
          moves: [moved(second, 'pending', { status: 'queued' })],
          messages: [inApp],
          details: [executionDetail(lead)],
        }),
      ]);
      expect(late).toEqual({ written: false, moved: new Set(), messages: new Map() });
      expect((await jobs.findChain(lead.id)).map((j) => j.status)).toEqual(['queued', 'pending', 'pending']);
      expect(await messages.findByJobId(lead.id)).toEqual([]);
      expect(await details.listByJobIds(scope, [lead.id])).toEqual([]);

      // the lead's move holds; of the others, the one whose status the session knew wrong stays as stored
      const [done] = await chains.write([
        changes(chain, {
          lead: moved(lead, 'queued', { status: 'completed' }),
          moves: [moved(second, 'pending', { status: 'canceled' }), moved(third, 'queued', { status: 'canceled' })],
          messages: [inApp],
        }),
      ]);
      expect(done.written).toBe(true);
      expect(done.moved).toEqual(new Set([lead.id, second.id]));
      expect((await jobs.findChain(lead.id)).map((j) => j.status)).toEqual(['completed', 'canceled', 'pending']);
    });

    it('writes the JSON a step left on a job as given: keys with dots, and an output that is not an object', async () => {
      const scope = newScope();
      const [digest, step] = [built(scope, 'digest'), built(scope, 'chat')];
      await chains.write([digest, step]);
      const digested = moved(digest.jobs[0], 'queued', {
        status: 'completed',
        digest: { type: 'regular', events: [{ 'a.b': 1 }] },
        output: { plan: 'pro', 'a.b': [1] },
      });
      const answered = moved(step.jobs[0], 'queued', { status: 'completed', output: 'plain answer' });
      expect(await written(changes(digest, { lead: digested }), changes(step, { lead: answered }))).toEqual([true, true]);
      expect(await jobs.findById(digested.job.id)).toEqual(digested.job);
      expect(await jobs.findById(answered.job.id)).toEqual(answered.job);
    });

    it('applies a write without a lead as given, and answers an existing message as stored', async () => {
      const scope = newScope();
      const chain = ran(scope);
      const [lead, next] = chain.jobs;
      await chains.write([chain]);
      const again = { ...chain.messages[0], content: 'rendered again' };
      const [result] = await chains.write([
        changes(chain, { moves: [moved(next, 'queued', { status: 'running' })], messages: [again], details: [executionDetail(lead)] }),
      ]);
      expect(result).toEqual({ written: true, moved: new Set([next.id]), messages: new Map([[again.id, { message: chain.messages[0], created: false }]]) });
      expect(await details.listByJobIds(scope, [lead.id])).toHaveLength(2);
    });

    it('answers concurrent writes each for its own, one of two moving the same job from the same status winning', async () => {
      const scope = newScope();
      const chain = built(scope, 'in_app', 'chat');
      const other = built(scope, 'in_app');
      await chains.write([chain, other]);
      const [lead] = chain.jobs;
      const write = (detail: string) =>
        changes(chain, { lead: moved(lead, 'queued', { status: 'completed' }), messages: [message(lead)], details: [executionDetail(lead, { detail })] });
      const results = await Promise.all([
        written(write('first')),
        written(write('second'), changes(other, { lead: moved(other.jobs[0], 'queued', { status: 'completed' }) })),
      ]);
      expect(results.flat().filter(Boolean)).toHaveLength(2);
      expect(results[1][1]).toBe(true);
      expect(await details.listByJobIds(scope, [lead.id])).toHaveLength(1);
      expect(await messages.findByJobId(lead.id)).toHaveLength(1);
    });
  });
}

function openChains(store: RepositoryStoreFixture) {
  return async (): Promise<Repositories> => {
    const { repositories, close } = await store.open();
    const { chains, notifications, jobs, executionDetails: details, messages } = repositories;
    return { chains, notifications, jobs, details, messages, close };
  };
}

describe.each(REPOSITORY_STORES)('Chain writes on $name', (store) => chainsContract(openChains(store)));

describeMongoContract('Chain writes', (store) => chainsContract(openChains(store)));
