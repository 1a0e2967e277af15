import { DigestBucketRepository, DigestEvent, OpenDigest } from '@app/delivery';
import { EnvironmentScope } from '@app/kernel';
import { EnvironmentRecords, copy, stored } from './memory-records';

interface Bucket {
  status: 'open' | 'closed';
  masterJobId?: string;
  masterNotificationId?: string;
  events: DigestEvent[];
  fireAt?: Date;
  lastEventAt?: Date;
}

const toEvent = (e: DigestEvent): DigestEvent => ({ jobId: e.jobId, notificationId: e.notificationId, payload: e.payload ?? {}, at: e.at });

/** GREATEST(a, b), which ignores NULL. */
const latest = (a: Date | undefined, b: Date) => (a && a.getTime() >= b.getTime() ? a : b);

/**
 * DigestBucketRepository in memory: one bucket per (environment, bucket key), open (one master
 * collecting events) or closed. Each method is one step, so concurrent callers serialise as the
 * SQL adapter's conditional statements do on the bucket's row.
 */
export class InMemoryDigestBucketRepository implements DigestBucketRepository, EnvironmentRecords {
  private readonly buckets = new Map<string, Bucket>();

  purgeEnvironment(environmentId: string): number {
    const doomed = [...this.buckets.keys()].filter((key) => (JSON.parse(key) as string[])[0] === environmentId);
    for (const key of doomed) this.buckets.delete(key);
    return doomed.length;
  }

  async mergeIntoOpen(scope: EnvironmentScope, bucketKey: string, event: DigestEvent): Promise<OpenDigest | null> {
    const bucket = this.buckets.get(this.key(scope, bucketKey));
    if (!bucket || bucket.status !== 'open') return null;
    const given = toEvent(stored(event));
    if (!bucket.events.some((e) => e.jobId === given.jobId)) bucket.events.push(given);
    bucket.lastEventAt = latest(bucket.lastEventAt, given.at);
    return { masterJobId: bucket.masterJobId!, masterNotificationId: bucket.masterNotificationId!, fireAt: copy(bucket.fireAt!) };
  }

  async openAsMaster(scope: EnvironmentScope, bucketKey: string, masterJobId: string, masterEvent: DigestEvent, fireAt: Date): Promise<boolean> {
    const key = this.key(scope, bucketKey);
    const bucket = this.buckets.get(key);
    if (bucket?.status === 'open') return false;
    const given = stored({ masterJobId, event: toEvent(masterEvent), fireAt });
    this.buckets.set(key, {
      status: 'open',
      masterJobId: given.masterJobId,
      masterNotificationId: given.event.notificationId,
      events: [given.event],
      fireAt: given.fireAt,
      lastEventAt: latest(bucket?.lastEventAt, given.event.at),
    });
    return true;
  }

  async close(scope: EnvironmentScope, bucketKey: string, masterJobId: string): Promise<DigestEvent[] | null> {
    // Closing again under the same master (a redelivered fire) returns the same events until the bucket reopens.
    const bucket = this.buckets.get(this.key(scope, bucketKey));
    if (!bucket || bucket.masterJobId === undefined || bucket.masterJobId !== masterJobId) return null;
    bucket.status = 'closed';
    return copy(bucket.events);
  }

  async recordEvent(scope: EnvironmentScope, bucketKey: string, at: Date): Promise<void> {
    const key = this.key(scope, bucketKey);
    const bucket = this.buckets.get(key);
    if (bucket) bucket.lastEventAt = latest(bucket.lastEventAt, new Date(at));
    else this.buckets.set(key, { status: 'closed', events: [], lastEventAt: new Date(at) });
  }

  async hasRecentEvent(scope: EnvironmentScope, bucketKey: string, since: Date): Promise<boolean> {
    const lastEventAt = this.buckets.get(this.key(scope, bucketKey))?.lastEventAt;
    return lastEventAt !== undefined && lastEventAt.getTime() >= since.getTime();
  }

  /** Buckets are keyed by environment, as the SQL table's primary key. */
  private key(scope: EnvironmentScope, bucketKey: string): string {
    return JSON.stringify([scope.environmentId, bucketKey]);
  }
}
