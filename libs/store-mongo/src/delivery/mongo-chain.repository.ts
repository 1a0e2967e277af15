import { ChainChanges, ChainRepository, ChainWrite, ChainWriteResult, JobMove, MOVED_JOB_FIELDS, Message, NewChain } from '@app/delivery';
import { mongo } from 'mongoose';
import { Doc, updateOf } from '../mongo-documents';
import { isDuplicateKey } from '../mongo-errors';
import { COLLECTIONS, CollectionName, MongoStore } from '../mongo-store';
import { executionDetailDocuments, jobDocuments, messageDocuments, notificationDocuments } from './delivery-documents';

/** A move as one conditional update: the job's moved fields, only while its status is still `from`. */
export function jobMove({ job, from }: JobMove): { filter: mongo.Filter<Doc>; update: Doc } {
  const $set: Doc = {};
  const $unset: Doc = {};
  for (const field of MOVED_JOB_FIELDS) {
    const value = jobDocuments.field(field, job[field]);
    if (value === undefined) $unset[field] = '';
    else $set[field] = value;
  }
  return { filter: { _id: job.id, status: from }, update: updateOf({ $set, $unset }) };
}

/** A message's delivery as one update: the fields the session left it with (absent ones unset). */
export function messageDelivery(message: Message): Doc {
  const doc = messageDocuments.toDocument(message);
  const $set: Doc = {};
  const $unset: Doc = {};
  for (const field of ['status', 'updatedAt', 'deliveredAt', 'identifier', 'errorId', 'errorText'] as const) {
    if (doc[field] === undefined) $unset[field] = '';
    else $set[field] = doc[field];
  }
  return updateOf({ $set, $unset });
}

/** The documents of one batch of new chains, per collection, the notifications first. */
export function chainDocuments(chains: NewChain[]): [CollectionName, Doc[]][] {
  return [
    [COLLECTIONS.notifications, chains.map((c) => notificationDocuments.toDocument(c.notification))],
    [COLLECTIONS.jobs, chains.flatMap((c) => c.jobs.map((job) => jobDocuments.toDocument(job)))],
    [COLLECTIONS.messages, chains.flatMap((c) => c.messages.map((message) => messageDocuments.toDocument(message)))],
    [COLLECTIONS.executionDetails, chains.flatMap((c) => c.details.map((detail) => executionDetailDocuments.toDocument(detail)))],
  ];
}

/** How often a transaction is tried again when a concurrent one wrote one of its records first. */
const RACE_RETRIES = 3;

const NOTHING_WRITTEN: ChainWriteResult = { written: false, moved: new Set(), messages: new Map() };

/**
 * ChainRepository on MongoDB: the new chains of a call in one transaction (a notification that exists
 * brings none of its records), and each change set in one transaction of its own, aborted unless its
 * lead's move holds.
 */
export class MongoChainRepository implements ChainRepository {
  constructor(private readonly store: MongoStore) {}

  async write(writes: ChainWrite[]): Promise<ChainWriteResult[]> {
    const fresh = writes.filter((write): write is NewChain => write.kind === 'new');
    const [created, changed] = await Promise.all([
      fresh.length ? this.retried((session) => this.writeNew(fresh, session)) : Promise.resolve(new Set<string>()),
      Promise.all(
        writes.map((write) => (write.kind === 'changes' ? this.retried((session) => this.writeChanges(write, session)) : Promise.resolve(undefined))),
      ),
    ]);
    return writes.map((write, index) => {
      if (write.kind === 'changes') return changed[index]!;
      if (!created.has(write.notification.id)) return NOTHING_WRITTEN;
      return {
        written: true,
        moved: new Set(write.jobs.map((job) => job.id)),
        messages: new Map(write.messages.map((message) => [message.id, { message, created: true }])),
      };
    });
  }

  /** A transaction, tried again when a concurrent one committed a record it inserts after it read (it then finds it). */
  private async retried<T>(work: (session: mongo.ClientSession) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.store.transaction(work);
      } catch (error) {
        if (!isDuplicateKey(error) || attempt >= RACE_RETRIES) throw error;
      }
    }
  }

  /** The chains whose notification is new, with all their records; a record whose id exists is left out (a write error would abort the transaction). */
  private async writeNew(chains: NewChain[], session: mongo.ClientSession): Promise<Set<string>> {
    const seen = new Set<string>();
    const unique = chains.filter(({ notification }) => !seen.has(notification.id) && seen.add(notification.id));
    const existing = await this.existingIds(
      COLLECTIONS.notifications,
      unique.map((c) => c.notification.id),
      session,
    );
    const fresh = unique.filter((c) => !existing.has(c.notification.id));
    for (const [name, docs] of chainDocuments(fresh)) await this.insertAbsent(name, docs, session);
    return new Set(fresh.map((c) => c.notification.id));
  }

  private async writeChanges(write: ChainChanges, session: mongo.ClientSession): Promise<ChainWriteResult> {
    const jobs = this.store.collection(COLLECTIONS.jobs);
    const move = async (change: JobMove) => {
      const { filter, update } = jobMove(change);
      return (await jobs.updateOne(filter, update, { session })).matchedCount === 1;
    };
    // nothing written yet when the lead's move does not hold: the transaction commits nothing
    if (write.lead && !(await move(write.lead))) return NOTHING_WRITTEN;
    const moved = new Set<string>(write.lead ? [write.lead.job.id] : []);
    for (const change of write.moves) if (await move(change)) moved.add(change.job.id);

    const messages = this.store.collection(COLLECTIONS.messages);
    const found = await messages.find({ _id: { $in: write.messages.map((m) => m.id) } }, { session }).toArray();
    const stored = new Map(found.map((doc) => [doc._id, messageDocuments.toDomain(doc)]));
    await this.insertAbsent(
      COLLECTIONS.messages,
      write.messages.filter((m) => !stored.has(m.id)).map((m) => messageDocuments.toDocument(m)),
      session,
    );
    for (const message of write.deliveries) await messages.updateOne({ _id: message.id }, messageDelivery(message), { session });
    await this.insertAbsent(
      COLLECTIONS.executionDetails,
      write.details.map((detail) => executionDetailDocuments.toDocument(detail)),
      session,
    );
    if (write.digestedInto) {
      await this.store
        .collection(COLLECTIONS.notifications)
        .updateOne({ _id: write.notificationId }, { $set: { digestedNotificationId: write.digestedInto }, $currentDate: { updatedAt: true } }, { session });
    }
    return {
      written: true,
      moved,
      messages: new Map(
        write.messages.map((m) => {
          const existing = stored.get(m.id);
          return [m.id, existing ? { message: existing, created: false } : { message: m, created: true }];
        }),
      ),
    };
  }

  private async insertAbsent(name: CollectionName, docs: Doc[], session: mongo.ClientSession): Promise<void> {
    if (docs.length === 0) return;
    const taken = await this.existingIds(
      name,
      docs.map((doc) => doc._id as string),
      session,
    );
    const kept = docs.filter((doc) => !taken.has(doc._id!));
    if (kept.length) await this.store.collection(name).insertMany(kept, { session, ordered: true });
  }

  private async existingIds(name: CollectionName, ids: string[], session: mongo.ClientSession): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const docs = await this.store
      .collection(name)
      .find({ _id: { $in: ids } }, { projection: { _id: 1 }, session })
      .toArray();
    return new Set(docs.map((doc) => doc._id));
  }
}
