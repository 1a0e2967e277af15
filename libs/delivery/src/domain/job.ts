import { DigestMetadata } from './step-metadata';
import { StepType } from './step-type';

/** Novu's JobStatusEnum. */
export const JOB_STATUSES = ['pending', 'queued', 'delayed', 'running', 'completed', 'failed', 'canceled', 'merged', 'skipped'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'canceled', 'merged', 'skipped'];

export function isTerminalJobStatus(status: JobStatus): boolean {
  return TERMINAL_JOB_STATUSES.includes(status);
}

/** Jobs still to run or running: retention keeps their notification's records whatever their age. */
export const UNFINISHED_JOB_STATUSES: readonly JobStatus[] = JOB_STATUSES.filter((status) => !isTerminalJobStatus(status));

/** Statuses a cancel (DELETE /v1/events/trigger/{transactionId}) may still stop. */
export const CANCELABLE_JOB_STATUSES: readonly JobStatus[] = ['pending', 'queued', 'delayed'];

const TRANSITIONS: Record<JobStatus, readonly JobStatus[]> = {
  pending: ['queued', 'delayed', 'running', 'completed', 'failed', 'canceled', 'merged', 'skipped'],
  queued: ['running', 'delayed', 'completed', 'failed', 'canceled', 'merged', 'skipped'],
  // a delayed digest master may be merged into by followers but never merged itself once it waits;
  // `delayed` → `delayed` is a schedule extension
  delayed: ['queued', 'running', 'delayed', 'completed', 'failed', 'canceled', 'skipped'],
  // running → queued/delayed: a retryable failure waits for the next attempt; running → running: redelivery
  running: ['running', 'queued', 'delayed', 'completed', 'failed', 'canceled', 'merged', 'skipped'],
  completed: [],
  failed: [],
  canceled: [],
  merged: [],
  skipped: [],
};

/** Whether a job may move from one status to another (terminal statuses never change). */
export function canTransitionJob(from: JobStatus, to: JobStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The statuses a job may be in for a move to `to`: use as the compare-and-set guard of a conditional update. */
export function jobStatusesAllowing(to: JobStatus): JobStatus[] {
  return JOB_STATUSES.filter((from) => canTransitionJob(from, to));
}

export interface JobDigest extends DigestMetadata {
  /** Payloads of the events collected when the digest fired (master first). */
  events?: Record<string, unknown>[];
}

/** One step of one notification for one subscriber. */
export interface Job {
  id: string;
  organizationId: string;
  environmentId: string;
  notificationId: string;
  transactionId: string;
  /** Internal id of the subscriber. */
  subscriberId: string;
  /** The subscriber's external id (subscriberId on the wire). */
  externalSubscriberId: string;
  workflowId: string;
  workflowIdentifier: string;
  /** The workflow step this job runs (its `_id`). */
  stepId: string;
  /** The previous job of the chain; undefined for the first. */
  parentId?: string;
  type: StepType;
  status: JobStatus;
  providerId?: string;
  payload: Record<string, unknown>;
  overrides: Record<string, unknown>;
  tenant?: Record<string, unknown>;
  actorId?: string;
  /** The trigger's contexts (`type:id`, sorted), whose data its steps read as `context.<type>`. */
  contextKeys?: string[];
  digest?: JobDigest;
  /** The bucket (digestBucketKey) a digest job belongs to. */
  digestBucketKey?: string;
  /** For a merged digest follower: the master job it merged into. */
  mergedDigestId?: string;
  /** When a delayed job is due. */
  runAt?: Date;
  attempts: number;
  scheduleExtensionsCount?: number;
  error?: { message: string; code?: string };
  /** What the step hands later steps of its chain, which read it as `steps.<stepId>` (an HTTP request step: its answer's body; Novu's `stepOutput`). */
  output?: unknown;
  createdAt: Date;
  updatedAt: Date;
}

type Linked = Pick<Job, 'id' | 'parentId'>;

/** Orders each notification's jobs along their parent chain (jobs created together share a createdAt). */
export function inChainOrder<T extends Linked>(jobs: T[]): T[] {
  const ids = new Set(jobs.map((j) => j.id));
  const childrenOf = new Map<string, T[]>();
  const roots: T[] = [];
  for (const job of jobs) {
    if (job.parentId && ids.has(job.parentId)) childrenOf.set(job.parentId, [...(childrenOf.get(job.parentId) ?? []), job]);
    else roots.push(job);
  }
  const ordered: T[] = [];
  const visit = (job: T) => {
    ordered.push(job);
    for (const child of childrenOf.get(job.id) ?? []) visit(child);
  };
  roots.forEach(visit);
  return ordered;
}

/** The jobs that follow `jobId` down its chain (its children, theirs, …), among one notification's jobs. */
export function jobsAfter<T extends Linked>(jobs: T[], jobId: string): T[] {
  const chain = new Set<string>();
  let frontier = [jobId];
  while (frontier.length) {
    const parents = new Set(frontier);
    frontier = jobs.filter((j) => j.parentId !== undefined && parents.has(j.parentId) && !chain.has(j.id)).map((j) => j.id);
    frontier.forEach((id) => chain.add(id));
  }
  return jobs.filter((j) => chain.has(j.id));
}
