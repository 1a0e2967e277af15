import { ChainChanges, ChainRepository, ChainWrite, ChainWriteResult, Job, JobMove, MOVED_JOB_FIELDS, Message, NewChain } from '@app/delivery';
import { Clock, systemClock } from '@app/kernel';
import { DeliveryTables, toExecutionDetail, toJob, toMessage, toNotification } from './memory-delivery-tables';
import { copy, stored } from './memory-records';

const NOTHING_WRITTEN: ChainWriteResult = { written: false, moved: new Set(), messages: new Map() };

/** ChainRepository in memory, over the store's shared delivery tables: each write all or none, as one SQL statement. */
export class InMemoryChainRepository implements ChainRepository {
  constructor(
    private readonly tables: DeliveryTables,
    private readonly clock: Clock = systemClock,
  ) {}

  async write(writes: ChainWrite[]): Promise<ChainWriteResult[]> {
    // Refused data refuses the whole call before anything is written, as the SQL statements do.
    return stored(writes).map((write) => (write.kind === 'new' ? this.writeNew(write) : this.writeChanges(write)));
  }

  private writeNew({ notification, jobs, messages, details }: NewChain): ChainWriteResult {
    if (this.tables.notifications.has(notification.id)) return NOTHING_WRITTEN;
    this.tables.notifications.set(notification.id, toNotification(notification));
    for (const job of jobs) if (!this.tables.jobs.has(job.id)) this.tables.jobs.set(job.id, toJob(job));
    const written = new Map(messages.map((message) => [message.id, this.insert(message)]));
    this.insertDetails(details);
    return { written: true, moved: new Set(jobs.map((job) => job.id)), messages: written };
  }

  private writeChanges(write: ChainChanges): ChainWriteResult {
    if (write.lead && !this.holds(write.lead)) return NOTHING_WRITTEN;
    const moved = new Set<string>();
    for (const move of [...(write.lead ? [write.lead] : []), ...write.moves]) {
      if (!this.holds(move)) continue;
      const row = this.tables.jobs.get(move.job.id) as unknown as Record<string, unknown>;
      for (const field of MOVED_JOB_FIELDS) row[field] = move.job[field];
      this.tables.jobs.set(move.job.id, toJob(row as unknown as Job));
      moved.add(move.job.id);
    }
    const messages = new Map(write.messages.map((message) => [message.id, this.insert(message)]));
    for (const delivery of write.deliveries) {
      const message = this.tables.messages.get(delivery.id);
      if (!message) continue;
      const { status, updatedAt, deliveredAt, identifier, errorId, errorText } = toMessage(delivery);
      this.tables.messages.set(delivery.id, toMessage({ ...message, status, updatedAt, deliveredAt, identifier, errorId, errorText }));
    }
    this.insertDetails(write.details);
    const notification = write.digestedInto && this.tables.notifications.get(write.notificationId);
    if (notification) {
      notification.digestedNotificationId = write.digestedInto;
      notification.updatedAt = this.clock.now();
    }
    return { written: true, moved, messages };
  }

  /** The job is stored at the status the move starts from (compare-and-set). */
  private holds({ job, from }: JobMove): boolean {
    return this.tables.jobs.get(job.id)?.status === from;
  }

  private insert(message: Message): { message: Message; created: boolean } {
    const existing = this.tables.messages.get(message.id);
    if (existing) return { message: copy(existing), created: false };
    const created = toMessage(message);
    this.tables.messages.set(message.id, created);
    return { message: copy(created), created: true };
  }

  private insertDetails(details: NewChain['details']): void {
    for (const detail of details) if (!this.tables.details.has(detail.id)) this.tables.details.set(detail.id, toExecutionDetail(detail));
  }
}
