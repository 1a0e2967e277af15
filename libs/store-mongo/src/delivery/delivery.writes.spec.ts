import { StoreRejectedError } from '@app/kernel';
import { oldestFilter } from '../mongo-retention';
import { digestMerge, digestOpen } from './mongo-digest-bucket.repository';
import { jobTransition } from './mongo-job.repository';
import { deliveryUpdate, messageListFilter } from './mongo-message.repository';
import { notificationListFilter, recordDocuments } from './mongo-notification.repository';
import { statusMove } from './mongo-trigger.repository';

const at = new Date('2025-01-01T00:00:00.000Z');
const scope = { organizationId: 'o1', environmentId: 'e1' };

describe('job transitions (compare-and-set on the status)', () => {
  it('move only from the statuses that allow the target, the store clock stamping updatedAt', () => {
    expect(jobTransition('j1', 'running', {})).toEqual({
      filter: { _id: 'j1', status: { $in: ['pending', 'queued', 'delayed', 'running'] } },
      update: { $set: { status: 'running' }, $currentDate: { updatedAt: true } },
    });
  });

  it('apply the patch: values set (caller JSON encoded), nulls unset, a given updatedAt instead of the clock', () => {
    const { update } = jobTransition('j1', 'delayed', { runAt: at, providerId: null, digest: { events: [{ 'a.b': 1 }] }, updatedAt: at });
    expect(update).toEqual({ $set: { status: 'delayed', runAt: at, digest: { events: [{ 'a%2Eb': 1 }] }, updatedAt: at }, $unset: { providerId: '' } });
  });

  it('ignore what a patch may not change, and refuse null where SQL holds NOT NULL', () => {
    expect(jobTransition('j1', 'failed', { status: 'x', notificationId: 'n' } as never).update).toEqual({
      $set: { status: 'failed' },
      $currentDate: { updatedAt: true },
    });
    expect(() => jobTransition('j1', 'failed', { payload: null })).toThrow(StoreRejectedError);
    expect(() => jobTransition('j1', 'failed', { attempts: null })).toThrow(StoreRejectedError);
  });

  it('a terminal target allows no status but the live ones; a terminal job never matches', () => {
    expect(jobTransition('j1', 'completed', {}).filter.status.$in).toEqual(['pending', 'queued', 'delayed', 'running']);
  });
});

describe('trigger status moves', () => {
  it('stamp the given time or the store clock', () => {
    expect(statusMove('processed', at)).toEqual({ $set: { status: 'processed', updatedAt: at } });
    expect(statusMove('canceled')).toEqual({ $set: { status: 'canceled' }, $currentDate: { updatedAt: true } });
  });
});

describe('message writes and lists', () => {
  it('a provider outcome: `sent` clears the error, other outcomes keep it unless given, deliveries appended', () => {
    expect(deliveryUpdate({ status: 'sent', identifier: 'pid', deliveredAt: at })).toEqual({
      $set: { status: 'sent', identifier: 'pid' },
      $unset: { errorId: '', errorText: '' },
      $push: { deliveredAt: at },
      $currentDate: { updatedAt: true },
    });
    expect(deliveryUpdate({ status: 'error', errorId: 'e', errorText: 'boom', updatedAt: at })).toEqual({
      $set: { status: 'error', errorId: 'e', errorText: 'boom', updatedAt: at },
    });
    expect(deliveryUpdate({ status: 'warning' })).toEqual({ $set: { status: 'warning' }, $currentDate: { updatedAt: true } });
  });

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

  it('a batch of records becomes the documents of each collection, notifications first', () => {
    const n = { id: 'n1', ...scope, createdAt: at, updatedAt: at } as never;
    const j = { id: 'j1', notificationId: 'n1', payload: {}, overrides: {}, attempts: 0 } as never;
    const batches = recordDocuments([{ notification: n, jobs: [j], messages: [], details: [] }]);
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
