import { Notification, NotificationListQuery, NotificationRecords, NotificationRepository } from '@app/delivery';
import { EnvironmentScope, Page } from '@app/kernel';
import { mongo } from 'mongoose';
import { allOf } from '../mongo-cursor-page';
import { Doc } from '../mongo-documents';
import { isDuplicateKey } from '../mongo-errors';
import { deleteOldest, ofFinishedNotifications } from '../mongo-retention';
import { COLLECTIONS, CollectionName, MongoStore } from '../mongo-store';
import { executionDetailDocuments, jobDocuments, messageDocuments, notificationDocuments } from './delivery-documents';

/** The filter of a notification list. */
export function notificationListFilter(scope: EnvironmentScope, query: NotificationListQuery): mongo.Filter<Doc> {
  return allOf(
    { environmentId: scope.environmentId, organizationId: scope.organizationId },
    query.transactionId !== undefined ? { transactionId: query.transactionId } : {},
    query.subscriberId !== undefined ? { subscriberId: query.subscriberId } : {},
    query.subscriberIds ? { subscriberId: { $in: query.subscriberIds } } : {},
    query.workflowIds ? { workflowId: { $in: query.workflowIds } } : {},
    // channels is an array: $in matches a notification holding any of them
    query.channels ? { channels: { $in: query.channels } } : {},
  );
}

/** The documents of one batch of records, per collection, the notifications first. */
export function recordDocuments(records: NotificationRecords[]): [CollectionName, Doc[]][] {
  return [
    [COLLECTIONS.notifications, records.map((r) => notificationDocuments.toDocument(r.notification))],
    [COLLECTIONS.jobs, records.flatMap((r) => r.jobs.map((job) => jobDocuments.toDocument(job)))],
    [COLLECTIONS.messages, records.flatMap((r) => r.messages.map((message) => messageDocuments.toDocument(message)))],
    [COLLECTIONS.executionDetails, records.flatMap((r) => r.details.map((detail) => executionDetailDocuments.toDocument(detail)))],
  ];
}

/** How often a batch is tried again when a concurrent call wrote one of its notifications first. */
const RACE_RETRIES = 3;

/**
 * NotificationRepository on MongoDB. A notification is written with its jobs, messages and
 * execution details in one transaction (MongoDB runs them on replica sets), all or none.
 */
export class MongoNotificationRepository implements NotificationRepository {
  constructor(private readonly store: MongoStore) {}

  private get notifications() {
    return this.store.collection(COLLECTIONS.notifications);
  }

  async insertWithRecords(records: NotificationRecords[]): Promise<Set<string>> {
    // the same notification twice in the call: only its first records go in
    const seen = new Set<string>();
    const unique = records.filter(({ notification }) => !seen.has(notification.id) && seen.add(notification.id));
    if (unique.length === 0) return new Set();
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.store.transaction((session) => this.writeNew(unique, session));
      } catch (error) {
        // A concurrent call committed one of these notifications after this transaction read: read again, skip it.
        if (!isDuplicateKey(error) || attempt >= RACE_RETRIES) throw error;
      }
    }
  }

  /**
   * Inside the transaction: the notifications that exist already are left out with all their
   * records, and so is any record whose id exists (a write error would abort the transaction).
   */
  private async writeNew(records: NotificationRecords[], session: mongo.ClientSession): Promise<Set<string>> {
    const existing = await this.existingIds(
      COLLECTIONS.notifications,
      records.map((r) => r.notification.id),
      session,
    );
    const fresh = records.filter((r) => !existing.has(r.notification.id));
    if (fresh.length === 0) return new Set();
    for (const [name, docs] of recordDocuments(fresh)) {
      if (docs.length === 0) continue;
      const taken =
        name === COLLECTIONS.notifications
          ? new Set<string>()
          : await this.existingIds(
              name,
              docs.map((doc) => doc._id as string),
              session,
            );
      const kept = docs.filter((doc) => !taken.has(doc._id!));
      if (kept.length) await this.store.collection(name).insertMany(kept, { session, ordered: true });
    }
    return new Set(fresh.map((r) => r.notification.id));
  }

  private async existingIds(name: CollectionName, ids: string[], session: mongo.ClientSession): Promise<Set<string>> {
    const docs = await this.store
      .collection(name)
      .find({ _id: { $in: ids } }, { projection: { _id: 1 }, session })
      .toArray();
    return new Set(docs.map((doc) => doc._id));
  }

  async findById(scope: EnvironmentScope, id: string): Promise<Notification | null> {
    const doc = await this.notifications.findOne({ _id: id, environmentId: scope.environmentId, organizationId: scope.organizationId });
    return doc ? notificationDocuments.toDomain(doc) : null;
  }

  async list(scope: EnvironmentScope, query: NotificationListQuery): Promise<Page<Notification>> {
    const filter = notificationListFilter(scope, query);
    const [docs, totalCount] = await Promise.all([
      this.notifications.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: query.page * query.limit, limit: query.limit }).toArray(),
      this.notifications.countDocuments(filter),
    ]);
    return { items: docs.map((doc) => notificationDocuments.toDomain(doc)), totalCount };
  }

  async setDigestedNotification(id: string, masterNotificationId: string): Promise<boolean> {
    const result = await this.notifications.updateOne(
      { _id: id },
      { $set: { digestedNotificationId: masterNotificationId }, $currentDate: { updatedAt: true } },
    );
    return result.matchedCount === 1;
  }

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.notifications, before, limit, {}, ofFinishedNotifications(this.store, '_id'));
  }
}
