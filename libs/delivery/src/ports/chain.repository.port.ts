import { ExecutionDetail } from '../domain/execution-detail';
import { Job, JobStatus } from '../domain/job';
import { Message } from '../domain/message';
import { Notification } from '../domain/notification';

/** A chain not stored yet: its notification, every job as its first step left them, and what that step recorded. */
export interface NewChain {
  kind: 'new';
  notification: Notification;
  jobs: Job[];
  /** Each inserted unless its id exists. */
  messages: Message[];
  details: ExecutionDetail[];
}

/** What a move writes of its job: the status and the fields a step changes (one absent is cleared). */
export const MOVED_JOB_FIELDS = [
  'status',
  'attempts',
  'updatedAt',
  'providerId',
  'digest',
  'digestBucketKey',
  'mergedDigestId',
  'runAt',
  'scheduleExtensionsCount',
  'error',
  'output',
] as const satisfies readonly (keyof Job)[];

/** A stored job as the session left it, written only where the store still holds it at `from` (compare-and-set): its MOVED_JOB_FIELDS. */
export interface JobMove {
  job: Job;
  from: JobStatus;
}

/** What a session changed in a stored chain since it last wrote. */
export interface ChainChanges {
  kind: 'changes';
  notificationId: string;
  /** The job the session runs, when it moved: unless its move holds, nothing of these changes is written. */
  lead?: JobMove;
  /** The chain's other jobs that moved (the next one queued, the rest ended), each a compare-and-set of its own. */
  moves: JobMove[];
  /** New messages, each inserted unless its id exists. */
  messages: Message[];
  /** Stored messages whose delivery changed: their status, errorId, errorText, identifier, deliveredAt and updatedAt, as given. */
  deliveries: Message[];
  details: ExecutionDetail[];
  /** The notification's digest merged into this master notification's. */
  digestedInto?: string;
}

/** One unit of work on a notification's chain (ChainSession's flush): all of it or none. */
export type ChainWrite = NewChain | ChainChanges;

export interface ChainWriteResult {
  /** False when nothing of the write was: its notification existed, or its lead's move did not hold. */
  written: boolean;
  /** The jobs whose moves held (every job of a new chain written). */
  moved: ReadonlySet<string>;
  /** Each new message given to a written write, as stored: the one given when this write created it, else the one found. */
  messages: ReadonlyMap<string, { message: Message; created: boolean }>;
}

/**
 * Writes what steps did to notifications' chains: jobs, messages and execution details, each write
 * all or none. How the rows are laid out is each store's own. Concurrent callers may share a
 * statement; each gets the answers of its own writes, and a notification (or a job) given by two
 * writes of concurrent calls goes to the first.
 */
export interface ChainRepository {
  write(writes: ChainWrite[]): Promise<ChainWriteResult[]>;
}
export const CHAIN_REPOSITORY = Symbol('ChainRepository');
