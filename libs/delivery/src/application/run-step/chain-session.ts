import { Clock, NewJob } from '@app/kernel';
import { ExecutionDetail } from '../../domain/execution-detail';
import { CANCELABLE_JOB_STATUSES, Job, JobStatus, canTransitionJob } from '../../domain/job';
import { Message } from '../../domain/message';
import { Notification } from '../../domain/notification';
import { ChainWrite, ChainWriteResult, JobMove } from '../../ports/chain.repository.port';
import { EndedChildStatus, JobPatch } from '../../ports/job.repository.port';
import { MessageDeliveryUpdate } from '../../ports/message.repository.port';
import { StepJobData } from '../queues';

/** A session's flush was refused: another run moved its job (or wrote its new chain) first; this run stops. */
export class LeadLostError extends Error {
  constructor(jobId: string | undefined) {
    super(`Job ${jobId} moved in another run; this run stops`);
  }
}

/** The answer for a flush with nothing to write: nothing refused. */
const NOTHING_PENDING: ChainWriteResult = { written: true, moved: new Set(), messages: new Map() };

/** Writes a session's pending changes (ChainSessions.flush); the session learns the result through `written`. */
export type ChainFlusher = (session: ChainSession) => Promise<boolean>;

/**
 * One unit of work on a notification's chain: the steps run against it change its jobs in memory
 * (with the store's compare-and-set rules) and collect messages, message deliveries, execution
 * details and step jobs to add; whoever opened it flushes it (ChainSessions.flush) as one
 * ChainRepository.write, all or none. A new chain (the fan-out's) is written whole; a stored one
 * writes its changes guarded by the compare-and-set of the job it runs (the lead). Step jobs go to
 * the queue only once what they point at is written. A flush the store refuses (another run moved
 * the lead) loses the session: nothing more of it is written.
 */
export class ChainSession {
  /** Every job of the chain, as the session has left them. */
  readonly jobs: Job[];
  private notification: Notification | undefined;
  /** Each job's status as the store holds it (empty until a new chain is written). */
  private readonly storedStatus = new Map<string, JobStatus>();
  /** The jobs moved or changed since the last flush. */
  private readonly touched = new Set<string>();
  private readonly details: ExecutionDetail[] = [];
  private readonly messages: Message[] = [];
  /** Stored messages this session knows (written or found), by id, and those whose delivery changed since the last flush. */
  private readonly storedMessages = new Map<string, Message>();
  private readonly deliveries = new Set<string>();
  private enqueued: NewJob<StepJobData>[] = [];
  private digestedInto: string | undefined;
  private lostLead = false;
  /** The messages the last flush created. */
  private created = new Set<string>();

  private constructor(
    jobs: Job[],
    private readonly clock: Clock,
    /** The job the session runs: a stored chain's changes are written only if its move holds. */
    readonly leadId: string | undefined,
    private readonly flusher: ChainFlusher | undefined,
  ) {
    this.jobs = jobs.map((job) => ({ ...job }));
  }

  /** A chain built and not written yet: its first write inserts it whole. */
  static ofNewChain(notification: Notification, jobs: Job[], clock: Clock, flusher?: ChainFlusher): ChainSession {
    const session = new ChainSession(jobs, clock, jobs[0]?.id, flusher);
    session.notification = { ...notification };
    return session;
  }

  /** A stored chain (JobRepository.findChain) on which `leadId` runs. */
  static ofStoredChain(jobs: Job[], leadId: string | undefined, clock: Clock, flusher?: ChainFlusher): ChainSession {
    const session = new ChainSession(jobs, clock, leadId, flusher);
    for (const job of jobs) session.storedStatus.set(job.id, job.status);
    return session;
  }

  get notificationId(): string {
    return this.notification?.id ?? this.jobs[0].notificationId;
  }

  /** Whether the chain is in the store as far as the session knows (a new chain, once its first write went in). */
  get stored(): boolean {
    return !this.notification;
  }

  /** False once a flush was refused: another run holds the lead, and this one must stop. */
  get holdsLead(): boolean {
    return !this.lostLead;
  }

  /** What the session holds for its next flush, to look at. */
  get held(): { readonly details: readonly ExecutionDetail[]; readonly messages: readonly Message[]; readonly stepJobs: readonly NewJob<StepJobData>[] } {
    return { details: this.details, messages: this.messages, stepJobs: this.enqueued };
  }

  job(id: string): Job | undefined {
    return this.jobs.find((candidate) => candidate.id === id);
  }

  /** The job that follows `parentId` in the chain. */
  nextOf(parentId: string): Job | undefined {
    return this.jobs.find((candidate) => candidate.parentId === parentId);
  }

  /** Moves the job to `to` (applying `patch`; null clears a field) if its status allows it; false when refused. */
  transition(jobId: string, to: JobStatus, patch: JobPatch = {}): boolean {
    const job = this.job(jobId);
    if (!job || !canTransitionJob(job.status, to)) return false;
    this.apply(job, to, patch);
    return true;
  }

  appendDetail(detail: ExecutionDetail): void {
    this.details.push(detail);
  }

  /** Adds a message unless the session knows one of its id (then answers that one). */
  insertMessage(message: Message): { message: Message; created: boolean } {
    const existing = this.messages.find((candidate) => candidate.id === message.id) ?? this.storedMessages.get(message.id);
    if (existing) return { message: existing, created: false };
    this.messages.push(message);
    return { message, created: true };
  }

  /**
   * Adds a message and flushes at once: the record of a vendor call is written before the call. The
   * message as stored (an earlier run's, when it exists); LeadLostError when another run holds the job.
   */
  async storeMessage(message: Message): Promise<{ message: Message; created: boolean }> {
    const known = this.storedMessages.get(message.id);
    if (known) return { message: known, created: false };
    this.insertMessage(message);
    const stored = (await this.flush()) && this.storedMessages.get(message.id);
    if (!stored) throw new LeadLostError(this.leadId);
    return { message: stored, created: this.created.has(message.id) };
  }

  /** A provider's outcome on a message of this session. */
  updateMessage(id: string, update: MessageDeliveryUpdate): void {
    const pending = this.messages.find((candidate) => candidate.id === id);
    const stored = pending ? undefined : this.storedMessages.get(id);
    const message = pending ?? stored;
    if (!message) return;
    const { errorId: _errorId, errorText: _errorText, ...rest } = message;
    const changed: Message = {
      ...rest,
      status: update.status,
      ...(update.errorId !== undefined ? { errorId: update.errorId } : {}),
      ...(update.errorText !== undefined ? { errorText: update.errorText } : {}),
      ...(update.identifier !== undefined ? { identifier: update.identifier } : {}),
      deliveredAt: update.deliveredAt ? [...message.deliveredAt, update.deliveredAt] : message.deliveredAt,
      updatedAt: update.updatedAt ?? this.clock.now(),
    };
    if (pending) this.messages[this.messages.indexOf(pending)] = changed;
    else {
      this.storedMessages.set(id, changed);
      this.deliveries.add(id);
    }
  }

  /** Queues the job after `parentId` (pending only), with the digest events given; the job as moved, or null. */
  queueNext(parentId: string, digestEvents?: Record<string, unknown>[]): Job | null {
    const next = this.nextOf(parentId);
    if (!next || next.status !== 'pending') return null;
    this.apply(next, 'queued', digestEvents ? { digest: { ...next.digest, events: digestEvents } } : {});
    return { ...next };
  }

  /** Ends the not-yet-running jobs after `afterJobId` (all of the chain's without it); their ids. */
  cancelChildren(afterJobId?: string, status: EndedChildStatus = 'canceled'): string[] {
    const after = afterJobId === undefined ? -1 : this.jobs.findIndex((job) => job.id === afterJobId);
    if (afterJobId !== undefined && after === -1) return [];
    const canceled: string[] = [];
    for (const job of this.jobs.slice(after + 1)) {
      if (!CANCELABLE_JOB_STATUSES.includes(job.status)) continue;
      this.apply(job, status, {});
      canceled.push(job.id);
    }
    return canceled;
  }

  /** A step job to add to the queue once the session is written. */
  enqueue(job: NewJob<StepJobData>): void {
    this.enqueued.push(job);
  }

  /** The notification's digest merged into this master notification's. */
  digestInto(masterNotificationId: string): void {
    if (this.notification) this.notification.digestedNotificationId = masterNotificationId;
    else this.digestedInto = masterNotificationId;
  }

  /** Writes what is pending (ChainSessions.flush); false when the store refused it. */
  flush(): Promise<boolean> {
    if (!this.flusher) throw new Error('This chain session has no store to flush to');
    return this.flusher(this);
  }

  /** What the next flush writes; undefined when nothing is pending (or the session lost its lead). */
  pendingWrite(): ChainWrite | undefined {
    if (this.lostLead) return undefined;
    if (this.notification) {
      return {
        kind: 'new',
        notification: { ...this.notification },
        jobs: this.jobs.map((job) => ({ ...job })),
        messages: [...this.messages],
        details: [...this.details],
      };
    }
    const moves = this.jobs.filter((job) => this.touched.has(job.id)).map((job): JobMove => ({ job: { ...job }, from: this.storedStatus.get(job.id)! }));
    const lead = moves.find((move) => move.job.id === this.leadId);
    const deliveries = [...this.deliveries].map((id) => this.storedMessages.get(id)!);
    if (!moves.length && !this.messages.length && !deliveries.length && !this.details.length && !this.digestedInto) return undefined;
    return {
      kind: 'changes',
      notificationId: this.notificationId,
      ...(lead ? { lead } : {}),
      moves: moves.filter((move) => move !== lead),
      messages: [...this.messages],
      deliveries,
      details: [...this.details],
      ...(this.digestedInto ? { digestedInto: this.digestedInto } : {}),
    };
  }

  /**
   * Takes in the result of writing `write` (pendingWrite's; none when nothing was pending): what it
   * wrote is stored from now on. The step jobs to add now (none for a job whose move did not hold),
   * and the messages it created.
   */
  written(write?: ChainWrite, result: ChainWriteResult = NOTHING_PENDING): { enqueue: NewJob<StepJobData>[]; created: Message[] } {
    const attempted = new Set(
      !write ? [] : write.kind === 'new' ? write.jobs.map((job) => job.id) : [...(write.lead ? [write.lead] : []), ...write.moves].map((move) => move.job.id),
    );
    const enqueue = result.written && !this.lostLead ? this.enqueued.filter((job) => !attempted.has(job.data.jobId) || result.moved.has(job.data.jobId)) : [];
    const created = [...result.messages.values()].filter((entry) => entry.created).map((entry) => entry.message);
    this.enqueued = [];
    this.created = new Set(created.map((message) => message.id));
    if (!result.written) {
      // a new chain that exists already, or a lead another run moved: this run's view is stale
      this.lostLead = true;
      return { enqueue, created };
    }
    this.notification = undefined;
    for (const job of this.jobs) if (attempted.has(job.id) && result.moved.has(job.id)) this.storedStatus.set(job.id, job.status);
    this.touched.clear();
    for (const [id, entry] of result.messages) this.storedMessages.set(id, entry.message);
    this.messages.length = 0;
    this.details.length = 0;
    this.deliveries.clear();
    this.digestedInto = undefined;
    return { enqueue, created };
  }

  private apply(job: Job, to: JobStatus, patch: JobPatch): void {
    job.status = to;
    for (const [field, value] of Object.entries(patch)) {
      if (value === null) delete (job as unknown as Record<string, unknown>)[field];
      else if (value !== undefined) (job as unknown as Record<string, unknown>)[field] = value;
    }
    if (!patch.updatedAt) job.updatedAt = this.clock.now();
    this.touched.add(job.id);
  }
}
