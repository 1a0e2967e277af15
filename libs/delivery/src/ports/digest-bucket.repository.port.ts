import { EnvironmentScope } from '@app/kernel';

/** One event collected by a digest. */
export interface DigestEvent {
  jobId: string;
  notificationId: string;
  payload: Record<string, unknown>;
  at: Date;
}

export interface OpenDigest {
  masterJobId: string;
  masterNotificationId: string;
  fireAt: Date;
}

/**
 * Makes digest merging atomic under concurrency: a bucket (digestBucketKey) is either open —
 * one master job waiting to fire, collecting events — or closed. Every method is one conditional
 * write, so concurrent triggers never produce two digests for one bucket. The engine's loop:
 * `mergeIntoOpen`; if null, `openAsMaster`; if false (someone else opened first), merge again.
 */
export interface DigestBucketRepository {
  /**
   * Appends the event to the bucket's open digest and returns that digest; null when none is open.
   * An event whose job is already in the digest is not added twice (a redelivery).
   */
  mergeIntoOpen(scope: EnvironmentScope, bucketKey: string, event: DigestEvent): Promise<OpenDigest | null>;
  /** Opens the bucket with this job as master and its event first; false when the bucket is already open. */
  openAsMaster(scope: EnvironmentScope, bucketKey: string, masterJobId: string, masterEvent: DigestEvent, fireAt: Date): Promise<boolean>;
  /**
   * Closes the digest this master opened and returns its events (master first, then in merge order).
   * Closing again under the same master (a redelivered fire) returns the same events until the
   * bucket reopens; null when the bucket's latest digest is not this master's.
   */
  close(scope: EnvironmentScope, bucketKey: string, masterJobId: string): Promise<DigestEvent[] | null>;
  /** Notes an event that did not enter a digest (a first backoff event), for hasRecentEvent. */
  recordEvent(scope: EnvironmentScope, bucketKey: string, at: Date): Promise<void>;
  /** Backoff: whether an event of this bucket (merged, opening or recorded) happened at or after `since`; ask before recording the current one. */
  hasRecentEvent(scope: EnvironmentScope, bucketKey: string, since: Date): Promise<boolean>;
}
export const DIGEST_BUCKET_REPOSITORY = Symbol('DigestBucketRepository');
