import { EnvironmentScope } from '@app/kernel';
import { Job } from '../domain/job';

/**
 * What a ChainSession's cancelChildren leaves the jobs as: canceled, `merged` (the rest of a chain whose digest merged
 * into another) or `skipped` (the rest of a chain a throttle step stopped), as Novu.
 */
export type EndedChildStatus = 'canceled' | 'merged' | 'skipped';

/** The fields a ChainSession's transition may change beside the status. */
export const JOB_PATCH_FIELDS = [
  'providerId',
  'payload',
  'overrides',
  'digest',
  'digestBucketKey',
  'mergedDigestId',
  'runAt',
  'attempts',
  'scheduleExtensionsCount',
  'error',
  'output',
  'updatedAt',
] as const;

/** What a transition may change beside the status; `null` clears an optional field. */
export type JobPatch = { [K in (typeof JOB_PATCH_FIELDS)[number]]?: Job[K] | null };

export interface JobRepository {
  findById(id: string): Promise<Job | null>;
  /** Every job of the notification `jobId` belongs to, in chain order; none when there is no such job. */
  findChain(jobId: string): Promise<Job[]>;
  /** The jobs of these notifications, each notification's chain in step order. */
  findByNotificationIds(scope: EnvironmentScope, notificationIds: string[]): Promise<Job[]>;
  /** Cancels the not-yet-running jobs (pending, queued, delayed) of a transaction; returns them as canceled. */
  cancelPendingByTransaction(scope: EnvironmentScope, transactionId: string, at?: Date): Promise<Job[]>;
  /**
   * Recovery (any environment): jobs that should have moved by `before` but did not — `queued` or
   * `running` and untouched since, or `delayed` and due since — oldest first.
   */
  findOverdue(before: Date, limit: number): Promise<Job[]>;
  /**
   * Retention (any environment): deletes up to `limit` jobs created before `before`, oldest first,
   * in one statement; returns how many. Only jobs whose whole notification is finished: never an
   * unfinished job (pending, queued, delayed, running) nor a finished one beside it, so a chain
   * still under way keeps its history. That condition only ever turns false to true (a finished
   * job never changes, and a notification gets no job after it is written), so an adapter may
   * select then delete.
   */
  deleteOlderThan(before: Date, limit: number): Promise<number>;
}
export const JOB_REPOSITORY = Symbol('JobRepository');
