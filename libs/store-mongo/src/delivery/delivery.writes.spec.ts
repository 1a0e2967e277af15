import { oldestFilter } from '../mongo-retention';
import { digestMerge, digestOpen } from './mongo-digest-bucket.repository';
import { messageListFilter } from './mongo-message.repository';
import { notificationListFilter } from './mongo-notification.repository';
import { chainDocuments, jobMove, messageDelivery } from './mongo-chain.repository';
import { statusMove } from './mongo-trigger.repository';
import { throttleAdmission, throttleWindowId } from './mongo-throttle-window.repository';

const at = new Date('2025-01-01T00:00:00.000Z');
const scope = { organizationId: 'o1', environmentId: 'e1' };

describe('chain writes', () => {
  const job = { id: 'j1', status: 'delayed', attempts: 1, updatedAt: at, runAt: at, digest: { events: [{ 'a.b': 1 }] }, payload: { big: true } } as never;

  it('a job move sets the moved fields (caller JSON encoded) and unsets the absent ones, only from the status the session knew', () => {
    expect(jobMove({ job, from: 'running' })).toEqual({
      filter: { _id: 'j1', status: 'running' },
      update: {
        $set: { status: 'delayed', attempts: 1, updatedAt: at, runAt: at, digest: { events: [{ 'a%2Eb': 1 }] } },
        $unset: { providerId: '', digestBucketKey: '', mergedDigestId: '', scheduleExtensionsCount: '', error: '', output: '' },
      },
    });
  });

  it("a message's delivery writes its status, times, identifier and error as the session left them", () => {
    const message = { id: 'm1', status: 'sent', updatedAt: at, deliveredAt: [at], identifier: 'pid', content: 'x' } as never;
    expect(messageDelivery(message)).toEqual({
      $set: { status: 'sent', updatedAt: at, deliveredAt: [at], identifier: 'pid' },
      $unset: { errorId: '', errorText: '' },
    });
  });
});

describe('trigger status moves', () => {
  it('stamp the given time or the store clock', () => {
    expect(statusMove('processed', at)).toEqual({ $set: { status: 'processed', updatedAt: at } });
    expect(statusMove('canceled')).toEqual({ $set: { status: 'canceled' }, $currentDate: { updatedAt: true } });
  });
});

describe('message lists', () => {
  it('a list filters by channel, subscriber and any of the transactions', () => {
    expect(messageListFilter(scope, { page: 0, limit: 10 })).toEqual({ environmentId: 'e1', organizationId: 'o1' });
    expect(messageListFilter(scope, { page: 0, limit: 10, channel: 'email', subscriberId: 's1', transactionIds: ['a', 'b'] })).toEqual({
      $and: [{ environmentId: 'e1', organizationId: 'o1' }, { channel: 'email' }, { subscriberId: 's1' }, { transactionId: { $in: ['a', 'b'] } }],
    });
  });
});

describe('notification lists and records', () => {
  it('a list filters by transaction, subscriber(s), workflows and any of the channels', () => {
    expect(notificationListFilter(scope, { page: 0, limit: 10 })).toEqual({ environmentId: 'e1', organizationId: 'o1' });
    expect(
      notificationListFilter(scope, {
        page: 0,
        limit: 10,
        transactionId: 'tx',
        subscriberId: 's1',
        subscriberIds: ['s1', 's2'],
        workflowIds: ['w'],
        channels: ['email'],
      }),
    ).toEqual({
      $and: [
        { environmentId: 'e1', organizationId: 'o1' },
        { transactionId: 'tx' },
        { subscriberId: 's1' },
        { subscriberId: { $in: ['s1', 's2'] } },
        { workflowId: { $in: ['w'] } },
        { channels: { $in: ['email'] } },
      ],
    });
  });

  it('a batch of new chains becomes the documents of each collection, notifications first', () => {
    const n = { id: 'n1', ...scope, createdAt: at, updatedAt: at } as never;
    const j = { id: 'j1', notificationId: 'n1', payload: {}, overrides: {}, attempts: 0 } as never;
    const batches = chainDocuments([{ kind: 'new', notification: n, jobs: [j], messages: [], details: [] }]);
    expect(batches.map(([name, docs]) => [name, docs.map((doc) => doc._id)])).toEqual([
      ['notifications', ['n1']],
      ['jobs', ['j1']],
      ['messages', []],
      ['execution_details', []],
    ]);
  });
});

describe('digest bucket writes', () => {
  const event = { jobId: 'j2', notificationId: 'n2', payload: { $x: '$events' }, at };

  it('a merge appends the event unless its job is in already, keeps the latest event time, values as literals', () => {
    expect(digestMerge(event)).toEqual([
      {
        $set: {
          events: {
            $cond: [
              { $in: [{ $literal: 'j2' }, { $ifNull: ['$events.jobId', []] }] },
              { $ifNull: ['$events', []] },
              { $concatArrays: [{ $ifNull: ['$events', []] }, [{ $literal: { jobId: 'j2', notificationId: 'n2', payload: { '%24x': '$events' }, at } }]] },
            ],
          },
          lastEventAt: { $max: ['$lastEventAt', at] },
          updatedAt: '$$NOW',
        },
      },
    ]);
  });

  it('an open reopens a closed bucket under this master, with its event first and the next generation', () => {
    const fireAt = new Date('2025-01-01T00:05:00.000Z');
    expect(digestOpen('j1', event, fireAt)).toEqual({
      $set: {
        status: 'open',
        masterJobId: 'j1',
        masterNotificationId: 'n2',
        events: [{ jobId: 'j2', notificationId: 'n2', payload: { '%24x': '$events' }, at }],
        fireAt,
      },
      $inc: { generation: 1 },
      $max: { lastEventAt: at },
      $currentDate: { updatedAt: true },
    });
  });
});

describe('throttle window admission', () => {
  /**
   * The aggregation operators the admission uses, as MongoDB evaluates them (missing and null sort
   * before any date), so its cases run here without a server.
   */
  function evaluate(expression: unknown, doc: Record<string, unknown>): unknown {
    if (typeof expression === 'string' && expression.startsWith('$')) return doc[expression.slice(1)];
    if (expression === null || typeof expression !== 'object' || expression instanceof Date || Array.isArray(expression)) return expression;
    const [[operator, args]] = Object.entries(expression);
    const values = () => (args as unknown[]).map((arg) => evaluate(arg, doc));
    const time = (value: unknown) => (value instanceof Date ? value.getTime() : -Infinity);
    switch (operator) {
      case '$literal':
        return args;
      case '$ifNull': {
        const [value, fallback] = values();
        return value ?? fallback;
      }
      case '$or':
        return values().some(Boolean);
      case '$eq': {
        const [a, b] = values();
        return a === b;
      }
      case '$lte': {
        const [a, b] = values();
        return time(a) <= time(b);
      }
      case '$gte': {
        const [a, b] = values();
        return (a as number) >= (b as number);
      }
      case '$in': {
        const [item, list] = values();
        return (list as unknown[]).includes(item);
      }
      case '$size':
        return (evaluate(args, doc) as unknown[]).length;
      case '$cond': {
        const [test, then, otherwise] = args as unknown[];
        return evaluate(test, doc) ? evaluate(then, doc) : evaluate(otherwise, doc);
      }
      case '$concatArrays':
        return (values() as unknown[][]).flat();
      default:
        throw new Error(`operator ${operator} not evaluated here`);
    }
  }

  const minute = (n: number) => new Date(at.getTime() + n * 60_000);
  const request = (jobId: string, n: number, threshold = 2) => ({ jobId, threshold, at: minute(n), endsAt: minute(n + 1) });
  /** The document after the update, computed from the one before it as MongoDB's single $set stage does. */
  function admit(doc: Record<string, unknown>, jobId: string, n: number) {
    const [stage] = throttleAdmission('k1', request(jobId, n));
    const computed = Object.fromEntries(
      Object.entries(stage.$set)
        .filter(([field]) => field !== 'updatedAt')
        .map(([field, value]) => [field, evaluate(value, doc)]),
    );
    return { ...doc, ...computed };
  }

  // A job id that looks like a path ('$j1') shows it goes in as a literal.
  it('opens a window for the first run, takes runs until full, counts a job once, and opens anew once the window ended', () => {
    const opened = admit({ _id: throttleWindowId(scope, 'k1'), environmentId: 'e1' }, '$j1', 0);
    expect(opened).toEqual({ _id: '["e1","k1"]', environmentId: 'e1', throttleKey: 'k1', openedAt: minute(0), endsAt: minute(1), jobIds: ['$j1'] });
    const twice = admit(admit(opened, '$j1', 0.1), 'j2', 0.2);
    expect(twice.jobIds).toEqual(['$j1', 'j2']);
    expect(admit(twice, 'j3', 0.5)).toEqual(twice);
    expect(admit(twice, 'j3', 1)).toMatchObject({ openedAt: minute(1), endsAt: minute(2), jobIds: ['j3'] });
    expect(throttleAdmission('k1', request('j1', 0))[0].$set.updatedAt).toBe('$$NOW');
  });
});

describe('retention', () => {
  it('picks the oldest records before the cutoff that match, walking on from the last one read', () => {
    expect(oldestFilter(at, {})).toEqual({ createdAt: { $lt: at } });
    const from = { createdAt: new Date('2024-12-01T00:00:00.000Z'), _id: 'x' };
    expect(oldestFilter(at, { status: { $ne: 'pending' } }, from)).toEqual({
      $and: [
        { createdAt: { $lt: at } },
        { status: { $ne: 'pending' } },
        { $or: [{ createdAt: { $gt: from.createdAt } }, { createdAt: from.createdAt, _id: { $gt: 'x' } }] },
      ],
    });
  });
});
