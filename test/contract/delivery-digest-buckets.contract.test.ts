import { DigestBucketRepository, DigestEvent, digestBucketKey } from '@app/delivery';
import { EnvironmentScope, newId } from '@app/kernel';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';
import { newScope, tick } from './delivery-fixtures';

/** The DigestBucketRepository contract; every store adapter must pass it. */
function digestBucketRepositoryContract(open: () => Promise<{ repository: DigestBucketRepository; close(): Promise<void> }>) {
  let repository: DigestBucketRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  const newBucket = () => digestBucketKey(newId(), newId(), 'payload.group', { group: 'g' });
  const event = (n: number, at = tick()): DigestEvent => ({ jobId: newId(), notificationId: newId(), payload: { n }, at });

  /** The engine's loop: merge into the open digest, else open one as master, else (lost the race) merge again. */
  async function mergeOrOpen(scope: EnvironmentScope, bucketKey: string, e: DigestEvent, fireAt: Date): Promise<string> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const open = await repository.mergeIntoOpen(scope, bucketKey, e);
      if (open) return open.masterJobId;
      if (await repository.openAsMaster(scope, bucketKey, e.jobId, e, fireAt)) return e.jobId;
    }
    throw new Error('merge-or-open did not settle');
  }

  it('turns 50 concurrent triggers into one digest with 50 events', async () => {
    const scope = newScope();
    const bucketKey = newBucket();
    const fireAt = tick(60_000);
    const events = Array.from({ length: 50 }, (_, n) => event(n));
    const masters = await Promise.all(events.map((e) => mergeOrOpen(scope, bucketKey, e, fireAt)));

    expect(new Set(masters).size).toBe(1);
    const [masterJobId] = masters;
    expect(events.map((e) => e.jobId)).toContain(masterJobId);
    const collected = await repository.close(scope, bucketKey, masterJobId);
    expect(collected).toHaveLength(50);
    expect(collected![0].jobId).toBe(masterJobId);
    expect(new Set(collected!.map((e) => e.jobId))).toEqual(new Set(events.map((e) => e.jobId)));
    const byJob = new Map(events.map((e) => [e.jobId, e]));
    for (const e of collected!) expect(e).toEqual(byJob.get(e.jobId));
  });

  it('opens, merges, reports the open digest and closes under its master only', async () => {
    const scope = newScope();
    const bucketKey = newBucket();
    const [master, follower] = [event(1), event(2)];
    const fireAt = tick(60_000);
    expect(await repository.mergeIntoOpen(scope, bucketKey, follower)).toBeNull();
    expect(await repository.openAsMaster(scope, bucketKey, master.jobId, master, fireAt)).toBe(true);
    expect(await repository.openAsMaster(scope, bucketKey, follower.jobId, follower, fireAt)).toBe(false);
    expect(await repository.mergeIntoOpen(scope, bucketKey, follower)).toEqual({
      masterJobId: master.jobId,
      masterNotificationId: master.notificationId,
      fireAt,
    });
    // a redelivered follower (or the master itself) is not added twice
    expect(await repository.mergeIntoOpen(scope, bucketKey, follower)).toMatchObject({ masterJobId: master.jobId });
    expect(await repository.mergeIntoOpen(scope, bucketKey, master)).toMatchObject({ masterJobId: master.jobId });

    expect(await repository.close(scope, bucketKey, follower.jobId)).toBeNull();
    expect(await repository.close(newScope(), bucketKey, master.jobId)).toBeNull();
    expect(await repository.close(scope, bucketKey, master.jobId)).toEqual([master, follower]);
    // a redelivered fire gets the same events back
    expect(await repository.close(scope, bucketKey, master.jobId)).toEqual([master, follower]);
    expect(await repository.mergeIntoOpen(scope, bucketKey, event(3))).toBeNull();
    expect(await repository.close(scope, newBucket(), master.jobId)).toBeNull();
  });

  it('reopens a closed bucket for a new master, with only the new events', async () => {
    const scope = newScope();
    const bucketKey = newBucket();
    const [first, second, third] = [event(1), event(2), event(3)];
    await repository.openAsMaster(scope, bucketKey, first.jobId, first, tick(60_000));
    await repository.close(scope, bucketKey, first.jobId);
    expect(await repository.openAsMaster(scope, bucketKey, second.jobId, second, tick(60_000))).toBe(true);
    expect(await repository.mergeIntoOpen(scope, bucketKey, third)).toMatchObject({ masterJobId: second.jobId });
    // the previous master no longer owns the bucket
    expect(await repository.close(scope, bucketKey, first.jobId)).toBeNull();
    expect(await repository.close(scope, bucketKey, second.jobId)).toEqual([second, third]);
  });

  it('accounts for every event exactly once when a digest closes while triggers keep arriving', async () => {
    const scope = newScope();
    const bucketKey = newBucket();
    const first = event(0);
    await repository.openAsMaster(scope, bucketKey, first.jobId, first, tick(60_000));
    const arriving = Array.from({ length: 30 }, (_, n) => event(n + 1));
    const [masters, closed] = await Promise.all([
      Promise.all(arriving.map((e) => mergeOrOpen(scope, bucketKey, e, tick()))),
      repository.close(scope, bucketKey, first.jobId),
    ]);
    const later = new Set(masters.filter((m) => m !== first.jobId));
    expect(later.size).toBeLessThanOrEqual(1);
    const afterClose = later.size === 1 ? await repository.close(scope, bucketKey, [...later][0]) : [];
    const seen = [...closed!, ...afterClose!].map((e) => e.jobId).sort();
    expect(seen).toEqual([first, ...arriving].map((e) => e.jobId).sort());
  });

  it('tells whether a bucket had an event recently (backoff)', async () => {
    const scope = newScope();
    const bucketKey = newBucket();
    const start = tick();
    expect(await repository.hasRecentEvent(scope, bucketKey, start)).toBe(false);
    const skippedAt = tick();
    await repository.recordEvent(scope, bucketKey, skippedAt);
    expect(await repository.hasRecentEvent(scope, bucketKey, start)).toBe(true);
    expect(await repository.hasRecentEvent(scope, bucketKey, tick())).toBe(false);
    // an earlier event never moves the mark back
    await repository.recordEvent(scope, bucketKey, start);
    expect(await repository.hasRecentEvent(scope, bucketKey, skippedAt)).toBe(true);
    // a recorded-only bucket is closed: the next event may open it
    const master = event(1);
    expect(await repository.mergeIntoOpen(scope, bucketKey, master)).toBeNull();
    expect(await repository.openAsMaster(scope, bucketKey, master.jobId, master, tick(60_000))).toBe(true);
    expect(await repository.hasRecentEvent(scope, bucketKey, master.at)).toBe(true);
    const follower = event(2);
    await repository.mergeIntoOpen(scope, bucketKey, follower);
    expect(await repository.hasRecentEvent(scope, bucketKey, follower.at)).toBe(true);
    expect(await repository.hasRecentEvent(newScope(), bucketKey, start)).toBe(false);
  });

  it('keeps the buckets of different environments apart', async () => {
    const [a, b] = [newScope(), newScope()];
    const bucketKey = newBucket();
    const [masterA, masterB] = [event(1), event(2)];
    expect(await repository.openAsMaster(a, bucketKey, masterA.jobId, masterA, tick(60_000))).toBe(true);
    expect(await repository.mergeIntoOpen(b, bucketKey, masterB)).toBeNull();
    expect(await repository.openAsMaster(b, bucketKey, masterB.jobId, masterB, tick(60_000))).toBe(true);
    expect(await repository.close(b, bucketKey, masterA.jobId)).toBeNull();
    expect(await repository.close(a, bucketKey, masterA.jobId)).toEqual([masterA]);
    expect(await repository.close(b, bucketKey, masterB.jobId)).toEqual([masterB]);
  });
}

describe.each(REPOSITORY_STORES)('DigestBucketRepository on $name', (store) => {
  digestBucketRepositoryContract(openRepository(store, (r) => r.digestBuckets));
});

describeMongoContract('DigestBucketRepository', (store) => digestBucketRepositoryContract(openRepository(store, (r) => r.digestBuckets)));
