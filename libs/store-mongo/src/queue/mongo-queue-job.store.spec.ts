import { queueJobDocument, reportedState, requeueStalledWrite } from './mongo-queue-job.store';

const now = new Date('2025-01-01T00:00:00.000Z');

describe('queue job documents', () => {
  it('a new job is pending, due after its delay, with its attempts and backoff normalised and its data as caller JSON', () => {
    expect(
      queueJobDocument('steps', { id: 'j1', data: { 'a.b': 1 }, delayMs: 1500, attempts: 3.7, backoff: { type: 'fixed', delayMs: 999.6 } as never }, now),
    ).toEqual({
      queue: 'steps',
      id: 'j1',
      data: { 'a%2Eb': 1 },
      state: 'pending',
      runAt: new Date('2025-01-01T00:00:01.500Z'),
      attempts: 3,
      attemptsMade: 0,
      stalledCount: 0,
      backoffMs: 1000,
      createdAt: now,
    });
    expect(queueJobDocument('steps', { id: 'j2', data: undefined, delayMs: -5, attempts: 0 }, now)).toMatchObject({
      data: null,
      runAt: now,
      attempts: 1,
      backoffMs: 0,
    });
  });

  it('reports a pending job due later as delayed and one due now as waiting', () => {
    expect(reportedState({ state: 'pending', runAt: new Date(now.getTime() + 1) }, now)).toBe('delayed');
    expect(reportedState({ state: 'pending', runAt: now }, now)).toBe('waiting');
    expect(reportedState({ state: 'active', runAt: now }, now)).toBe('active');
  });

  it('requeues lapsed leases (or every lease but the live consumers’), failing a job stalled too often', () => {
    const write = requeueStalledWrite('steps', 2, now, ['c1']);
    expect(write.filter).toEqual({ queue: 'steps', state: 'active', $or: [{ lockedUntil: { $lt: now } }, { lockedBy: { $nin: ['c1'] } }] });
    expect(requeueStalledWrite('steps', 2, now).filter.$or).toEqual([{ lockedUntil: { $lt: now } }]);
    expect(write.update).toEqual([
      { $set: { stalledCount: { $add: [{ $ifNull: ['$stalledCount', 0] }, 1] } } },
      {
        $set: {
          state: { $cond: [{ $gt: ['$stalledCount', 2] }, 'failed', 'pending'] },
          finishedAt: { $cond: [{ $gt: ['$stalledCount', 2] }, now, '$$REMOVE'] },
          lastError: { $cond: [{ $gt: ['$stalledCount', 2] }, { $literal: 'job stalled more than allowable limit' }, '$lastError'] },
          lockedBy: '$$REMOVE',
          lockedUntil: '$$REMOVE',
        },
      },
    ]);
  });
});
