import { EnvironmentScope, PageRequest } from '@app/kernel';
import { ListPage, WebhookAttempt, WebhookDelivery, WebhookDeliveryRepository, WebhookDeliveryStatus } from '@app/webhooks';
import { DocumentMapper, updateOf } from '../mongo-documents';
import { deleteOldest } from '../mongo-retention';
import { COLLECTIONS, MongoStore } from '../mongo-store';
import { insertManyUnlessDuplicate, insertUnlessDuplicate } from '../mongo-writes';

export const webhookDeliveryDocuments = new DocumentMapper<WebhookDelivery>({
  fields: ['organizationId', 'environmentId', 'endpointId', 'eventType', 'body', 'url', 'status', 'attempts', 'nextAttemptAt', 'createdAt', 'updatedAt'],
  defaults: { attempts: () => 0 },
});

export const webhookAttemptDocuments = new DocumentMapper<WebhookAttempt>({
  fields: [
    'organizationId',
    'environmentId',
    'endpointId',
    'deliveryId',
    'eventType',
    'attempt',
    'statusCode',
    'latencyMs',
    'success',
    'error',
    'responseExcerpt',
    'createdAt',
  ],
});

/** The outcome of attempt `attempt`, recorded only when it follows the attempts made (compare-and-set) on a pending delivery. */
export function attemptOutcome(id: string, attempt: number, outcome: { status: WebhookDeliveryStatus; nextAttemptAt?: Date }, now: Date) {
  return {
    filter: { _id: id, attempts: attempt - 1, status: 'pending' },
    update: updateOf({
      $set: { attempts: attempt, status: outcome.status, updatedAt: now, ...(outcome.nextAttemptAt ? { nextAttemptAt: outcome.nextAttemptAt } : {}) },
      $unset: outcome.nextAttemptAt ? undefined : { nextAttemptAt: '' },
    }),
  };
}

/** The outbox of outbound webhooks and the attempts log, on MongoDB. */
export class MongoWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly store: MongoStore) {}

  private get deliveries() {
    return this.store.collection(COLLECTIONS.webhookDeliveries);
  }

  private get attempts() {
    return this.store.collection(COLLECTIONS.webhookAttempts);
  }

  async insertMany(deliveries: WebhookDelivery[]): Promise<string[]> {
    const inserted = await insertManyUnlessDuplicate(
      this.deliveries,
      deliveries.map((d) => webhookDeliveryDocuments.toDocument(d) as { _id: string }),
    );
    return deliveries.map((d) => d.id).filter((id) => inserted.has(id));
  }

  async findById(id: string): Promise<WebhookDelivery | null> {
    const doc = await this.deliveries.findOne({ _id: id });
    return doc ? webhookDeliveryDocuments.toDomain(doc) : null;
  }

  async recordAttempt(id: string, attempt: number, outcome: { status: WebhookDeliveryStatus; nextAttemptAt?: Date }, now: Date): Promise<boolean> {
    const { filter, update } = attemptOutcome(id, attempt, outcome, now);
    return (await this.deliveries.updateOne(filter, update)).matchedCount === 1;
  }

  async drop(id: string, now: Date): Promise<void> {
    await this.deliveries.updateOne({ _id: id, status: 'pending' }, { $set: { status: 'dropped', updatedAt: now }, $unset: { nextAttemptAt: '' } });
  }

  async findOverdue(before: Date, limit: number): Promise<WebhookDelivery[]> {
    const docs = await this.deliveries.find({ status: 'pending', nextAttemptAt: { $lt: before } }, { sort: { nextAttemptAt: 1, _id: 1 }, limit }).toArray();
    return docs.map((doc) => webhookDeliveryDocuments.toDomain(doc));
  }

  async appendAttempt(attempt: WebhookAttempt): Promise<void> {
    await insertUnlessDuplicate(() => this.attempts.insertOne(webhookAttemptDocuments.toDocument(attempt)));
  }

  async listAttempts(scope: EnvironmentScope, endpointId: string, page: PageRequest): Promise<ListPage<WebhookAttempt>> {
    const docs = await this.attempts
      .find({ environmentId: scope.environmentId, endpointId }, { sort: { createdAt: -1, _id: -1 }, skip: page.page * page.limit, limit: page.limit + 1 })
      .toArray();
    return { items: docs.slice(0, page.limit).map((doc) => webhookAttemptDocuments.toDomain(doc)), hasMore: docs.length > page.limit };
  }

  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    // never a pending delivery: it may still be attempted
    return (await deleteOldest(this.deliveries, before, limit, { status: { $ne: 'pending' } })) + (await deleteOldest(this.attempts, before, limit));
  }

  async succeededSince(endpointId: string, since: Date): Promise<boolean> {
    return (await this.attempts.findOne({ endpointId, success: true, createdAt: { $gte: since } }, { projection: { _id: 1 } })) !== null;
  }
}
