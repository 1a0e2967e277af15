import {
  ChainChanges,
  ChainRepository,
  ExecutionDetailRepository,
  Job,
  JobRepository,
  JobStatus,
  MessageRepository,
  NewChain,
  Notification,
  NotificationRepository,
} from '@app/delivery';
import { deterministicId, newId } from '@app/kernel';
import { REPOSITORY_STORES, RepositoryStoreFixture } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';
import { executionDetail, job, jobChain, message, newScope, notification, tick } from './delivery-fixtures';

interface Repositories {
  chains: ChainRepository;
  notifications: NotificationRepository;
  jobs: JobRepository;
  details: ExecutionDetailRepository;
  messages: MessageRepository;
  close(): Promise<void>;
}

/** New chains through the one write the engine uses for them; the ids of those written. */
async function insert(chains: ChainRepository, given: NewChain[]): Promise<Set<string>> {
  const results = await chains.write(given);
  return new Set(given.filter((_, index) => results[index].written).map((chain) => chain.notification.id));
}

/** The NotificationRepository, JobRepository and ExecutionDetailRepository contracts; every store adapter must pass them. */
function deliveryRecordsContract(open: () => Promise<Repositories>) {
  let chains: ChainRepository;
  let notifications: NotificationRepository;
  let jobs: JobRepository;
  let details: ExecutionDetailRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ chains, notifications, jobs, details, close } = await open()));
  afterAll(() => close());

  /** Setup through the one write the engine uses: notifications with their jobs (a job's notification is made up when not given). */
  const write = (ns: Notification[], js: Job[] = []) => {
    const given = new Map(ns.map((n) => [n.id, n]));
    for (const j of js) {
      const { organizationId, environmentId, notificationId: id, transactionId, subscriberId } = j;
      if (!given.has(id)) given.set(id, notification({ organizationId, environmentId }, { id, transactionId, subscriberId }));
    }
    return insert(
      chains,
      [...given.values()].map((n) => ({ kind: 'new', notification: n, jobs: js.filter((j) => j.notificationId === n.id), messages: [], details: [] })),
    );
  };

  describe('NotificationRepository', () => {
    it('inserts in bulk idempotently and reads a notification back whole', async () => {
      const scope = newScope();
      const full = notification(scope, {
        controls: { subject: 'x' },
        severity: 'high',
        critical: true,
        tags: ['a', 'b'],
        topics: [{ topicId: newId(), topicKey: 'news' }],
        tenantIdentifier: 'acme',
        actorSubscriberId: newId(),
        contextKeys: ['app:jira', 'tenant:acme'],
      });
      const bare = notification(scope);
      expect(await write([full, bare])).toEqual(new Set([full.id, bare.id]));
      expect(await write([full, bare, full])).toEqual(new Set());
      const third = notification(scope);
      expect(await write([bare, third, third])).toEqual(new Set([third.id]));
      expect(await notifications.findById(scope, full.id)).toEqual(full);
      const found = await notifications.findById(scope, bare.id);
      expect(found).toEqual(bare);
      for (const field of ['controls', 'severity', 'tenantIdentifier', 'actorSubscriberId', 'contextKeys', 'digestedNotificationId']) {
        expect(found).not.toHaveProperty(field);
      }
    });

    /** A notification with a two-job chain whose first job ran: completed, its message and detail, the next queued. */
    const records = (scope: ReturnType<typeof newScope>): NewChain => {
      const n = notification(scope);
      const [first, second] = jobChain(n, ['in_app', 'chat']);
      const ran = [
        { ...first, status: 'completed' as const, providerId: 'novu' },
        { ...second, status: 'queued' as const },
      ];
      return { kind: 'new', notification: n, jobs: ran, messages: [message(ran[0])], details: [executionDetail(ran[0], { detail: 'Message sent' })] };
    };

    it('finds a first job written finished by its id among others, and cancels the jobs after it but never it', async () => {
      const scope = newScope();
      const a = records(scope);
      await chains.write([a]);
      const [first, second] = a.jobs;
      expect(await Promise.all([jobs.findById(first.id), jobs.findById(second.id), jobs.findById(newId())])).toEqual([first, second, null]);
      expect((await jobs.cancelPendingByTransaction(scope, a.notification.transactionId)).map((j) => j.id)).toEqual([second.id]);
      expect(await jobs.findById(first.id)).toEqual(first);
      expect((await jobs.findByNotificationIds(scope, [a.notification.id])).map((j) => [j.id, j.status])).toEqual([
        [first.id, 'completed'],
        [second.id, 'canceled'],
      ]);
    });

    it("lists a job's details written with it and appended later as one history, oldest first, and purges both", async () => {
      const scope = newScope();
      const at = new Date('1970-03-01T00:00:00Z');
      const n = notification(scope, { createdAt: at, updatedAt: at });
      const [first] = jobChain(n, ['in_app']).map((j) => ({ ...j, status: 'completed' as const, createdAt: at, updatedAt: at }));
      const written = [
        executionDetail(first, { detail: 'Step queued', createdAt: at }),
        executionDetail(first, { detail: 'Message sent', providerId: 'novu', raw: '{"a":1}', createdAt: new Date(at.getTime() + 2) }),
      ];
      // a detail of another job (not in this chain) is kept too
      const stray = executionDetail({ ...first, id: `${first.id}-other` }, { createdAt: new Date(at.getTime() + 1) });
      await chains.write([{ kind: 'new', notification: n, jobs: [first], messages: [], details: [...written, stray] }]);
      const later = executionDetail(first, { detail: 'Message seen', status: 'ReadConfirmation', createdAt: new Date(at.getTime() + 1) });
      await details.append(later);
      expect(await details.listByJobIds(scope, [first.id])).toEqual([written[0], later, written[1]]);
      expect(await details.listByJobIds(scope, [first.id, stray.jobId])).toEqual([written[0], stray, later, written[1]]);
      expect(await details.listByJobIds(newScope(), [first.id])).toEqual([]);

      const cutoff = new Date(at.getTime() + 60_000);
      expect(await details.deleteOlderThan(cutoff, 100)).toBe(4);
      expect(await details.listByJobIds(scope, [first.id, stray.jobId])).toEqual([]);
      expect(await details.deleteOlderThan(cutoff, 100)).toBe(0);
    });

    it('lists newest first with filters, pages and the total count', async () => {
      const scope = newScope();
      const transactionId = newId();
      const subscriber = newId();
      const inTransaction = [1, 2, 3].map(() => notification(scope, { transactionId }));
      const forSubscriber = [1, 2].map(() => notification(scope, { subscriberId: subscriber }));
      await write([...inTransaction, ...forSubscriber]);

      const all = await notifications.list(scope, { page: 0, limit: 10 });
      expect(all.totalCount).toBe(5);
      expect(all.items.map((n) => n.id)).toEqual([...inTransaction, ...forSubscriber].reverse().map((n) => n.id));

      const page = await notifications.list(scope, { transactionId, page: 1, limit: 2 });
      expect(page).toEqual({ items: [inTransaction[0]], totalCount: 3 });
      const bySubscriber = await notifications.list(scope, { subscriberId: subscriber, page: 0, limit: 10 });
      expect(bySubscriber.items.map((n) => n.id)).toEqual([forSubscriber[1].id, forSubscriber[0].id]);
      expect(await notifications.list(scope, { transactionId, subscriberId: subscriber, page: 0, limit: 10 })).toEqual({ items: [], totalCount: 0 });
      expect(await notifications.list(scope, { page: 5, limit: 10 })).toEqual({ items: [], totalCount: 5 });
    });

    it("filters the feed by any of several subscribers, workflows and channels (Novu's activity filters)", async () => {
      const scope = newScope();
      const [ada, bob] = [newId(), newId()];
      const [welcome, digest] = [newId(), newId()];
      const emailToAda = notification(scope, { subscriberId: ada, workflowId: welcome, channels: ['email'] });
      const smsToBob = notification(scope, { subscriberId: bob, workflowId: digest, channels: ['digest', 'sms'] });
      const inAppToOther = notification(scope, { workflowId: welcome, channels: ['in_app'] });
      await write([emailToAda, smsToBob, inAppToOther]);
      const ids = async (query: Partial<Parameters<typeof notifications.list>[1]>) =>
        (await notifications.list(scope, { page: 0, limit: 10, ...query })).items.map((n) => n.id).sort();
      const sorted = (...list: { id: string }[]) => list.map((n) => n.id).sort();
      expect(await ids({ subscriberIds: [ada, bob] })).toEqual(sorted(emailToAda, smsToBob));
      expect(await ids({ workflowIds: [welcome] })).toEqual(sorted(emailToAda, inAppToOther));
      expect(await ids({ channels: ['sms', 'in_app'] })).toEqual(sorted(smsToBob, inAppToOther));
      expect(await ids({ channels: ['email'], workflowIds: [welcome], subscriberIds: [ada, bob] })).toEqual(sorted(emailToAda));
      expect(await ids({ channels: ['push'] })).toEqual([]);
      expect((await notifications.list(scope, { channels: ['sms', 'email'], page: 0, limit: 1 })).totalCount).toBe(2);
    });

    it('never shows a notification to another environment', async () => {
      const scope = newScope();
      const n = notification(scope);
      await write([n]);
      const other = newScope();
      expect(await notifications.findById(other, n.id)).toBeNull();
      expect(await notifications.findById({ ...scope, organizationId: other.organizationId }, n.id)).toBeNull();
      expect(await notifications.list(other, { page: 0, limit: 10 })).toEqual({ items: [], totalCount: 0 });
      expect(await notifications.list(other, { transactionId: n.transactionId, page: 0, limit: 10 })).toEqual({ items: [], totalCount: 0 });
    });
  });

  describe('JobRepository', () => {
    it('inserts in bulk idempotently and reads a job back whole', async () => {
      const scope = newScope();
      const n = notification(scope);
      const full = job(n, 'digest-step', {
        type: 'digest',
        status: 'delayed',
        providerId: 'novu',
        tenant: { identifier: 'acme' },
        actorId: newId(),
        contextKeys: ['tenant:acme'],
        digest: { type: 'regular', amount: 5, unit: 'minutes', digestKey: 'payload.group', events: [{ a: 1 }] },
        digestBucketKey: '["w","s","No-Key-Provided"]',
        mergedDigestId: newId(),
        runAt: tick(),
        attempts: 2,
        scheduleExtensionsCount: 1,
        error: { message: 'boom', code: 'x' },
        output: { user: { name: 'Ada' }, 'a.b$': [1, null] },
      });
      const bare = job(n, 'in-app-step');
      expect(await write([], [full, bare])).toEqual(new Set([n.id]));
      expect(await write([], [bare, full])).toEqual(new Set());
      expect(await jobs.findById(full.id)).toEqual(full);
      const found = await jobs.findById(bare.id);
      expect(found).toEqual(bare);
      for (const field of [
        'parentId',
        'providerId',
        'tenant',
        'actorId',
        'contextKeys',
        'digest',
        'digestBucketKey',
        'mergedDigestId',
        'runAt',
        'error',
        'output',
      ]) {
        expect(found).not.toHaveProperty(field);
      }
      expect(await jobs.findById(newId())).toBeNull();
    });

    it('finds the jobs of notifications in chain order', async () => {
      const scope = newScope();
      const [first, second] = [notification(scope), notification(scope)];
      const chainA = jobChain(first, ['digest', 'in_app', 'chat', 'push']);
      const chainB = jobChain(second, ['delay', 'in_app']);
      // inserted out of order: the chain, not the insert order, decides
      await write([first, second], [...chainA].reverse().concat(chainB));
      const found = await jobs.findByNotificationIds(scope, [first.id, second.id]);
      const byNotification = (id: string) => found.filter((j) => j.notificationId === id).map((j) => j.id);
      expect(byNotification(first.id)).toEqual(chainA.map((j) => j.id));
      expect(byNotification(second.id)).toEqual(chainB.map((j) => j.id));
      expect(await jobs.findByNotificationIds(scope, [])).toEqual([]);
      expect(await jobs.findByNotificationIds(newScope(), [first.id])).toEqual([]);
    });

    it('answers concurrent callers each for their own rows (stores may batch them)', async () => {
      const scope = newScope();
      const ns = Array.from({ length: 6 }, () => notification(scope));
      const chains = ns.map((n) => jobChain(n, ['in_app']));
      // overlapping writes: the shared notification and its job count for exactly one caller
      const counts = await Promise.all([write(ns.slice(0, 2), [...chains[0], ...chains[1]]), write(ns.slice(1, 3), [...chains[1], ...chains[2]]), write([])]);
      expect(counts[0].size + counts[1].size).toBe(3);
      expect(counts[2].size).toBe(0);
      const found = await Promise.all([chains[0][0].id, newId(), chains[2][0].id].map((id) => jobs.findById(id)));
      expect(found.map((j) => j?.id ?? null)).toEqual([chains[0][0].id, null, chains[2][0].id]);
      const written = chains.slice(0, 3).map(([j]) => executionDetail(j));
      await Promise.all(written.map((d) => details.append(d)));
      expect(
        (
          await details.listByJobIds(
            scope,
            chains.slice(0, 3).map(([j]) => j.id),
          )
        )
          .map((d) => d.id)
          .sort(),
      ).toEqual(written.map((d) => d.id).sort());
    });

    it('finds overdue jobs: untouched queued or running ones, and delayed ones past their time', async () => {
      // Dates far in the past keep the other tests' jobs out of this store-wide query.
      const long = new Date('2001-01-01T00:00:00Z');
      const cutoff = new Date('2002-01-01T00:00:00Z');
      const n = notification(newScope());
      const make = (stepId: string, status: Job['status'], extra: Partial<Job> = {}) => job(n, stepId, { status, updatedAt: long, ...extra });
      const rows = [
        make('queued', 'queued'),
        make('running', 'running'),
        make('delayed-due', 'delayed', { runAt: long }),
        make('delayed-later', 'delayed', { runAt: new Date('2030-01-01T00:00:00Z') }),
        make('completed', 'completed'),
        make('pending', 'pending'),
        make('queued-recent', 'queued', { updatedAt: new Date('2003-01-01T00:00:00Z') }),
      ];
      await write([], rows);
      const overdue = await jobs.findOverdue(cutoff, 100);
      expect(overdue.map((j) => j.stepId).sort()).toEqual(['delayed-due', 'queued', 'running']);
      expect(await jobs.findOverdue(cutoff, 1)).toHaveLength(1);
    });

    it('cancels the not-yet-running jobs of a transaction, within its environment only', async () => {
      const scope = newScope();
      const transactionId = newId();
      const statuses: Job['status'][] = ['pending', 'queued', 'delayed', 'running', 'completed', 'failed'];
      const n = notification(scope, { transactionId });
      const all = statuses.map((status) => job(n, `step-${status}`, { status }));
      const otherTransaction = job(notification(scope), 'other');
      await write([], [...all, otherTransaction]);

      expect(await jobs.cancelPendingByTransaction(newScope(), transactionId)).toEqual([]);
      const canceledJobs = await jobs.cancelPendingByTransaction(scope, transactionId);
      expect(canceledJobs.every((j) => j.status === 'canceled' && j.transactionId === transactionId)).toBe(true);
      const canceled = canceledJobs.map((j) => j.id);
      expect(canceled.sort()).toEqual(
        all
          .filter((j) => ['pending', 'queued', 'delayed'].includes(j.status))
          .map((j) => j.id)
          .sort(),
      );
      expect(await jobs.cancelPendingByTransaction(scope, transactionId)).toEqual([]);
      const after = await jobs.findByNotificationIds(scope, [n.id]);
      expect(Object.fromEntries(after.map((j) => [j.stepId, j.status]))).toEqual({
        'step-pending': 'canceled',
        'step-queued': 'canceled',
        'step-delayed': 'canceled',
        'step-running': 'running',
        'step-completed': 'completed',
        'step-failed': 'failed',
      });
      expect(await jobs.findById(otherTransaction.id)).toMatchObject({ status: 'pending' });
    });
  });

  describe('ExecutionDetailRepository', () => {
    it('appends details (idempotently by id) and lists them by job, oldest first, within the environment', async () => {
      const scope = newScope();
      const n = notification(scope);
      const [a, b] = jobChain(n, ['in_app', 'chat']);
      const first = executionDetail(a, { status: 'Pending', detail: 'Step queued' });
      const second = executionDetail(a, { raw: JSON.stringify({ ok: true }), providerId: 'novu', isRetry: true });
      const third = executionDetail(b, { status: 'Failed', source: 'Webhook', detail: 'Unexpected provider error', isTest: true });
      const bare = executionDetail(b);
      delete bare.channel;
      await details.append(first);
      await details.appendMany([second, third, bare]);
      await details.appendMany([first, second]);
      await details.appendMany([]);

      expect(await details.listByJobIds(scope, [a.id])).toEqual([first, second]);
      const both = await details.listByJobIds(scope, [a.id, b.id]);
      expect(both).toEqual([first, second, third, bare]);
      expect(both[3]).not.toHaveProperty('channel');
      expect(both[3]).not.toHaveProperty('providerId');
      expect(await details.listByJobIds(scope, [])).toEqual([]);
      expect(await details.listByJobIds(newScope(), [a.id, b.id])).toEqual([]);
    });
  });

  /** Each purge deletes across environments, so these run on a store of their own, each test in an era of its own. */
  describe('retention: deleteOlderThan on NotificationRepository, JobRepository, ExecutionDetailRepository and MessageRepository', () => {
    let store: Repositories;
    beforeAll(async () => (store = await open()));
    afterAll(() => store.close());

    /** A notification created at `at` with a chain of jobs in these statuses, the first job's message and detail. */
    const records = (at: Date, statuses: JobStatus[], times: { messageAt?: Date; detailAt?: Date } = {}): NewChain => {
      const n = notification(newScope(), { createdAt: at, updatedAt: at });
      const chain = jobChain(
        n,
        statuses.map(() => 'in_app'),
      ).map((j, index) => ({ ...j, status: statuses[index] }));
      const messageAt = times.messageAt ?? at;
      return {
        kind: 'new',
        notification: n,
        jobs: chain,
        messages: [message(chain[0], { createdAt: messageAt, updatedAt: messageAt })],
        details: [executionDetail(chain[0], { createdAt: times.detailAt ?? at })],
      };
    };
    const scopeOf = (r: NewChain) => ({ organizationId: r.notification.organizationId, environmentId: r.notification.environmentId });
    /** What is left of a notification's rows. */
    const left = async (r: NewChain) => ({
      notification: (await store.notifications.findById(scopeOf(r), r.notification.id)) !== null,
      jobs: (await store.jobs.findByNotificationIds(scopeOf(r), [r.notification.id])).length,
      messages: (await store.messages.findByJobId(r.jobs[0].id)).length,
      details: (await store.details.listByJobIds(scopeOf(r), [r.jobs[0].id])).length,
    });
    const purge = async (before: Date, limit = 100) => ({
      details: await store.details.deleteOlderThan(before, limit),
      messages: await store.messages.deleteOlderThan(before, limit),
      jobs: await store.jobs.deleteOlderThan(before, limit),
      notifications: await store.notifications.deleteOlderThan(before, limit),
    });

    it('deletes the old rows of finished notifications, and nothing of a notification with an unfinished job until it finishes', async () => {
      const cutoff = new Date('2001-01-01T00:00:00Z');
      const old = new Date('2000-06-01T00:00:00Z');
      const young = new Date('2001-02-01T00:00:00Z');
      const done = records(old, ['completed', 'failed']);
      const unfinished = (['pending', 'queued', 'delayed', 'running'] as const).map((status) => records(old, ['completed', status]));
      const recent = records(young, ['completed', 'canceled']);
      // an old notification whose message was written after the cutoff (a late step): the message stays
      const lateMessage = records(old, ['skipped', 'merged'], { messageAt: young });
      await store.chains.write([done, ...unfinished, recent, lateMessage]);

      expect(await purge(cutoff)).toEqual({ details: 2, messages: 1, jobs: 4, notifications: 2 });
      expect(await purge(cutoff)).toEqual({ details: 0, messages: 0, jobs: 0, notifications: 0 });
      expect(await left(done)).toEqual({ notification: false, jobs: 0, messages: 0, details: 0 });
      for (const r of unfinished) expect(await left(r)).toEqual({ notification: true, jobs: 2, messages: 1, details: 1 });
      expect(await left(recent)).toEqual({ notification: true, jobs: 2, messages: 1, details: 1 });
      expect(await left(lateMessage)).toEqual({ notification: false, jobs: 0, messages: 1, details: 0 });

      // once their last jobs finish, the next purge takes them
      const finish = (r: NewChain): ChainChanges => {
        const last = r.jobs[1];
        return {
          kind: 'changes',
          notificationId: r.notification.id,
          lead: { job: { ...last, status: 'completed' }, from: last.status },
          moves: [],
          messages: [],
          deliveries: [],
          details: [],
        };
      };
      expect((await store.chains.write(unfinished.map(finish))).map((result) => result.written)).toEqual(unfinished.map(() => true));
      expect(await purge(cutoff)).toEqual({ details: 4, messages: 4, jobs: 8, notifications: 4 });
      for (const r of unfinished) expect(await left(r)).toEqual({ notification: false, jobs: 0, messages: 0, details: 0 });
      expect(await left(recent)).toEqual({ notification: true, jobs: 2, messages: 1, details: 1 });
    });

    it('deletes at most `limit` rows per call, oldest first', async () => {
      const cutoff = new Date('1991-01-01T00:00:00Z');
      const all = [5, 1, 4, 2, 3].map((month) => records(new Date(Date.UTC(1990, month, 1)), ['completed']));
      const byAge = [...all].sort((a, b) => a.notification.createdAt.getTime() - b.notification.createdAt.getTime());
      await store.chains.write(all);

      expect(await purge(cutoff, 2)).toEqual({ details: 2, messages: 2, jobs: 2, notifications: 2 });
      for (const r of byAge.slice(0, 2)) expect(await left(r)).toEqual({ notification: false, jobs: 0, messages: 0, details: 0 });
      for (const r of byAge.slice(2)) expect(await left(r)).toEqual({ notification: true, jobs: 1, messages: 1, details: 1 });
      expect(await purge(cutoff, 0)).toEqual({ details: 0, messages: 0, jobs: 0, notifications: 0 });
      expect(await purge(cutoff, 10)).toEqual({ details: 3, messages: 3, jobs: 3, notifications: 3 });
      for (const r of all) expect(await left(r)).toEqual({ notification: false, jobs: 0, messages: 0, details: 0 });
    });

    it('lets concurrent purgers share the work: each row deleted once', async () => {
      const cutoff = new Date('1981-01-01T00:00:00Z');
      const all = Array.from({ length: 30 }, (_, index) => records(new Date(Date.UTC(1980, 0, index + 1)), ['completed', 'failed']));
      await store.chains.write(all);
      // jobs find their oldest on a created_at index, messages and notifications an environment at a time
      for (const [repository, rows] of [
        [store.jobs, 60],
        [store.messages, 30],
        [store.notifications, 30],
      ] as const) {
        const counts = await Promise.all([1, 2, 3].map(() => repository.deleteOlderThan(cutoff, 7)));
        const more = await Promise.all([1, 2, 3].map(() => repository.deleteOlderThan(cutoff, 100)));
        expect([...counts, ...more].reduce((a, b) => a + b)).toBe(rows);
        expect(await repository.deleteOlderThan(cutoff, 100)).toBe(0);
      }
    });
  });

  it('derives the same id from the same parts and different ids otherwise', () => {
    expect(deterministicId('job', 'a', 'b')).toBe(deterministicId('job', 'a', 'b'));
    expect(deterministicId('job', 'a', 'b')).toMatch(/^[0-9a-f]{24}$/);
    expect(deterministicId('job', 'ab')).not.toBe(deterministicId('job', 'a', 'b'));
  });
}

/** The delivery record repositories of one opened store. */
function openDeliveryRecords(store: RepositoryStoreFixture) {
  return async (): Promise<Repositories> => {
    const { repositories, close } = await store.open();
    const { chains, notifications, jobs, executionDetails: details, messages } = repositories;
    return { chains, notifications, jobs, details, messages, close };
  };
}

describe.each(REPOSITORY_STORES)('Delivery records on $name', (store) => {
  deliveryRecordsContract(openDeliveryRecords(store));
});

describeMongoContract('Delivery records', (store) => deliveryRecordsContract(openDeliveryRecords(store)));
