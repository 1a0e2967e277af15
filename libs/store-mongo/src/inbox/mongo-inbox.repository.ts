import { Message } from '@app/delivery';
import { BadgeCounts, InboxChange, InboxChanged, InboxFilter, InboxItem, InboxPageRequest, InboxRepository, InboxState, sortedContextKeys } from '@app/inbox';
import { EnvironmentScope } from '@app/kernel';
import { mongo } from 'mongoose';
import { allOf, beyond } from '../mongo-cursor-page';
import { Doc } from '../mongo-documents';
import { storedJsonPath, toStoredJson } from '../mongo-json';
import { COLLECTIONS, MongoStore } from '../mongo-store';
import { messageDocuments } from '../delivery/delivery-documents';
import { deleteEach } from '../delivery/mongo-message.repository';

type Filter = mongo.Filter<Doc>;

/** One subscriber's in-app messages under a filter; `anySnooze` (single-message operations) reaches snoozed ones too. */
export function feedFilter(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter, anySnooze = false): Filter {
  const data = Object.entries(filter.data ?? {}).map(([key, value]) => ({ $eq: [`$${storedJsonPath('payload', key)}`, { $literal: toStoredJson(value) }] }));
  return allOf(
    { environmentId: scope.environmentId, organizationId: scope.organizationId, subscriberId, channel: 'in_app' },
    filter.tags?.length ? { tags: { $in: filter.tags } } : {},
    filter.read !== undefined ? { read: filter.read } : {},
    filter.seen !== undefined ? { seen: filter.seen } : {},
    filter.archived !== undefined ? { archived: filter.archived } : {},
    anySnooze ? {} : { snoozedUntil: { $exists: filter.snoozed === true } },
    // every key equals, whatever the stored value's type (an $expr equality does not look into arrays)
    data.length ? { $expr: { $and: data } } : {},
    filter.ids ? { _id: { $in: filter.ids } } : {},
    filter.createdGte ? { createdAt: { $gte: filter.createdGte } } : {},
    filter.createdLte ? { createdAt: { $lte: filter.createdLte } } : {},
  );
}

/** The stages that give each message its notification's severity (`none` when it has none) as `inboxSeverity`. */
export const SEVERITY_STAGES: Doc[] = [
  {
    $lookup: {
      from: COLLECTIONS.notifications,
      localField: 'notificationId',
      foreignField: '_id',
      pipeline: [{ $project: { severity: 1 } }],
      as: 'inboxNotification',
    },
  },
  {
    $set: {
      inboxSeverity: {
        $let: {
          vars: { severity: { $ifNull: [{ $arrayElemAt: ['$inboxNotification.severity', 0] }, ''] } },
          in: { $cond: [{ $eq: ['$$severity', ''] }, 'none', '$$severity'] },
        },
      },
    },
  },
  { $unset: 'inboxNotification' },
];

/**
 * The pipeline of a list or count: the feed filter, then — only when filtering by severity — the
 * notifications' severities before the page is cut; otherwise the page is cut first and only its
 * messages look up their severity.
 */
export function feedPipeline(match: Filter, severity: string[] | undefined, page?: { skip: number; limit: number }): Doc[] {
  const cut = page ? [{ $sort: { createdAt: -1, _id: -1 } }, { $skip: page.skip }, { $limit: page.limit }] : [];
  if (severity?.length) return [{ $match: match }, ...SEVERITY_STAGES, { $match: { inboxSeverity: { $in: severity } } }, ...cut];
  return [{ $match: match }, ...cut, ...(page ? SEVERITY_STAGES : [])];
}

/**
 * A change as one pipeline update: reading stamps lastReadDate, seeing stamps lastSeenDate and the
 * first firstSeenDate, archiving stamps archivedAt (unarchiving removes it), a snooze date sets it
 * (null removes it), a CTA replaces the old one ($literal: caller strings may start with `$`).
 */
export function inboxChange(change: InboxChange): Doc[] {
  const { at } = change;
  const set: Doc = { updatedAt: at };
  if (change.read === true) Object.assign(set, { read: true, lastReadDate: at });
  if (change.read === false) set.read = false;
  if (change.seen === true) Object.assign(set, { seen: true, lastSeenDate: at, firstSeenDate: { $ifNull: ['$firstSeenDate', at] } });
  if (change.seen === false) set.seen = false;
  if (change.archived === true) Object.assign(set, { archived: true, archivedAt: at });
  if (change.archived === false) Object.assign(set, { archived: false, archivedAt: '$$REMOVE' });
  if (change.snoozedUntil !== undefined) set.snoozedUntil = change.snoozedUntil ?? '$$REMOVE';
  if (change.cta !== undefined) set.cta = { $literal: toStoredJson(change.cta) };
  return [{ $set: set }];
}

const toItem = (doc: Doc): InboxItem => ({ message: messageDocuments.toDomain(doc), severity: doc.inboxSeverity || 'none' });

const stateOf = (doc: Doc): InboxState => {
  const { read, seen, archived, snoozedUntil } = messageDocuments.toDomain(doc);
  return { read, seen, archived, snoozedUntil };
};

/** InboxRepository on MongoDB: the messages collection read by subscriber, each change one conditional write. */
export class MongoInboxRepository implements InboxRepository {
  constructor(private readonly store: MongoStore) {}

  private get messages() {
    return this.store.collection(COLLECTIONS.messages);
  }

  async list(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter, page: InboxPageRequest): Promise<{ items: InboxItem[]; hasMore: boolean }> {
    let match = await this.feedMatch(scope, subscriberId, filter);
    if (page.after !== undefined) {
      const cursor = await this.messages.findOne({ _id: page.after, environmentId: scope.environmentId, subscriberId }, { projection: { createdAt: 1 } });
      // an unknown cursor gives an empty page
      if (!cursor) return { items: [], hasMore: false };
      match = allOf(match, beyond('createdAt', { value: cursor.createdAt, id: cursor._id }, '<', false));
    }
    const docs = await this.messages.aggregate<Doc>(feedPipeline(match, filter.severity, { skip: page.offset ?? 0, limit: page.limit + 1 })).toArray();
    return { items: docs.slice(0, page.limit).map(toItem), hasMore: docs.length > page.limit };
  }

  async count(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter): Promise<number> {
    const match = await this.feedMatch(scope, subscriberId, filter);
    if (!filter.severity?.length) return this.messages.countDocuments(match);
    const [counted] = await this.messages.aggregate<{ n: number }>([...feedPipeline(match, filter.severity), { $count: 'n' }]).toArray();
    return counted?.n ?? 0;
  }

  async find(scope: EnvironmentScope, subscriberId: string, id: string): Promise<InboxItem | null> {
    const [doc] = await this.withSeverity(feedFilter(scope, subscriberId, { ids: [id] }, true));
    return doc ? toItem(doc) : null;
  }

  async findMany(scope: EnvironmentScope, ids: string[]): Promise<InboxItem[]> {
    if (!ids.length) return [];
    const docs = await this.withSeverity({ environmentId: scope.environmentId, organizationId: scope.organizationId, _id: { $in: ids }, channel: 'in_app' });
    return docs.map(toItem);
  }

  async badgeCounts(scope: EnvironmentScope, subscriberIds: string[]): Promise<Map<string, BadgeCounts>> {
    const counts = new Map<string, BadgeCounts>();
    if (!subscriberIds.length) return counts;
    const groups = await this.messages
      .aggregate<{ _id: { subscriberId: string; severity: string }; unread: number; unseen: number }>([
        {
          $match: {
            environmentId: scope.environmentId,
            organizationId: scope.organizationId,
            subscriberId: { $in: subscriberIds },
            channel: 'in_app',
            archived: false,
            snoozedUntil: { $exists: false },
          },
        },
        ...SEVERITY_STAGES,
        {
          $group: {
            _id: { subscriberId: '$subscriberId', severity: '$inboxSeverity' },
            unread: { $sum: { $cond: ['$read', 0, 1] } },
            unseen: { $sum: { $cond: ['$seen', 0, 1] } },
          },
        },
      ])
      .toArray();
    for (const { _id, unread, unseen } of groups) {
      if (unread === 0 && unseen === 0) continue;
      const entry = counts.get(_id.subscriberId) ?? { unread: {}, unseen: 0 };
      if (unread > 0) entry.unread[_id.severity] = unread;
      entry.unseen += unseen;
      counts.set(_id.subscriberId, entry);
    }
    return counts;
  }

  async change(scope: EnvironmentScope, subscriberId: string, id: string, change: InboxChange): Promise<(InboxItem & Pick<InboxChanged, 'before'>) | null> {
    const before = await this.messages.findOneAndUpdate(feedFilter(scope, subscriberId, { ids: [id] }, true), inboxChange(change), {
      returnDocument: 'before',
    });
    if (!before) return null;
    const [after] = await this.withSeverity({ _id: before._id });
    // deleted in between: the change was made all the same
    return after ? { ...toItem(after), before: stateOf(before) } : null;
  }

  async changeMany(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter, change: InboxChange): Promise<InboxChanged[]> {
    const match = await this.bulkFilter(scope, subscriberId, filter);
    // one write per message: each answers the state it had just before this change
    const before = new Map<string, InboxState>();
    for (const { _id } of await this.messages.find(match, { projection: { _id: 1 } }).toArray()) {
      const doc = await this.messages.findOneAndUpdate(allOf(match, { _id }), inboxChange(change), { returnDocument: 'before' });
      if (doc) before.set(doc._id, stateOf(doc));
    }
    if (!before.size) return [];
    const after = await this.messages.find({ _id: { $in: [...before.keys()] } }).toArray();
    return after.map((doc) => ({ message: messageDocuments.toDomain(doc), before: before.get(doc._id)! }));
  }

  async delete(scope: EnvironmentScope, subscriberId: string, id: string): Promise<Message | null> {
    const doc = await this.messages.findOneAndDelete(feedFilter(scope, subscriberId, { ids: [id] }, true));
    return doc ? messageDocuments.toDomain(doc) : null;
  }

  async deleteMany(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter): Promise<Message[]> {
    return deleteEach(this.messages, await this.bulkFilter(scope, subscriberId, filter));
  }

  async wakeSnoozed(now: Date, limit: number): Promise<Message[]> {
    // one message per write: each is woken (and answered) by one sweep only, even across processes
    const woken: Message[] = [];
    while (woken.length < limit) {
      const doc = await this.messages.findOneAndUpdate(
        { snoozedUntil: { $lte: now } },
        // the woken message counts as delivered again now
        { $unset: { snoozedUntil: '' }, $set: { updatedAt: now }, $push: { deliveredAt: now } } as Doc,
        { sort: { snoozedUntil: 1 }, returnDocument: 'after' },
      );
      if (!doc) break;
      woken.push(messageDocuments.toDomain(doc));
    }
    return woken;
  }

  async setPresence(scope: EnvironmentScope, subscriberId: string, online: boolean, at: Date): Promise<void> {
    await this.store
      .collection(COLLECTIONS.subscribers)
      .updateOne(
        { environmentId: scope.environmentId, organizationId: scope.organizationId, _id: subscriberId },
        { $set: { isOnline: online, lastOnlineAt: at } },
      );
  }

  /** A bulk change's filter: the feed filter, narrowed first to the ids of the severities asked for when there are some. */
  private async bulkFilter(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter): Promise<Filter> {
    const match = await this.feedMatch(scope, subscriberId, filter);
    if (!filter.severity?.length) return match;
    const docs = await this.messages.aggregate<Doc>([...feedPipeline(match, filter.severity), { $project: { _id: 1 } }]).toArray();
    return allOf(match, { _id: { $in: docs.map((doc) => doc._id!) } });
  }

  /**
   * The feed filter, and for a context filter the subscriber's notifications sent within exactly
   * those contexts (a notification records its contexts' keys sorted: equal arrays are the same set).
   */
  private async feedMatch(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter): Promise<Filter> {
    const match = feedFilter(scope, subscriberId, filter);
    if (!filter.contextKeys?.length) return match;
    const notifications = await this.store
      .collection(COLLECTIONS.notifications)
      .find({ environmentId: scope.environmentId, subscriberId, contextKeys: { $eq: sortedContextKeys(filter.contextKeys) } }, { projection: { _id: 1 } })
      .toArray();
    return allOf(match, { notificationId: { $in: notifications.map((doc) => doc._id) } });
  }

  private withSeverity(match: Filter): Promise<Doc[]> {
    return this.messages.aggregate<Doc>([{ $match: match }, ...SEVERITY_STAGES]).toArray();
  }
}
