import { Inject, Injectable } from '@nestjs/common';
import { CallBatcher, CursorPage, EnvironmentScope, PageRequest } from '@app/kernel';
import { Subscriber, SubscriberChanges, SubscriberChannel, SubscriberRepository, SubscriberSearch, SubscriberUpsert, clearedBy } from '@app/subscribers';
import { SQL_CLIENT, SqlClient, textArray } from '../sql-client';
import { containsPattern, cursorListPage } from './sql-cursor-page';
import { TrigramStatistics, prefilterPattern } from './trigram-prefilter';

/** Domain field → column; the only names that ever reach SQL text. */
const COLUMNS = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phone: 'phone',
  avatar: 'avatar',
  locale: 'locale',
  timezone: 'timezone',
  data: 'data',
} as const;

const ORDER_COLUMNS = { _id: 'id', createdAt: 'created_at', updatedAt: 'updated_at' } as const;

/**
 * The texts searched by substring (ILIKE '%…%'), each as its trigram index (migration 20) and the
 * extended statistics of its trigrams (migration 24) spell it.
 */
const SEARCHED = {
  email: { text: 'email', statistics: 'subscribers_email_trigrams' },
  phone: { text: 'phone', statistics: 'subscribers_phone_trigrams' },
  name: { text: "btrim(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))", statistics: 'subscribers_name_trigrams' },
} as const;

const COLUMN_ENTRIES = Object.entries(COLUMNS);

const present = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;

export function toSubscriber(row: any): Subscriber {
  const subscriber: Subscriber = {
    id: row.id,
    organizationId: row.organization_id,
    environmentId: row.environment_id,
    subscriberId: row.subscriber_id,
    channels: row.channels ?? [],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  for (const [field, column] of COLUMN_ENTRIES) {
    if (present(row[column])) (subscriber as any)[field] = row[column];
  }
  if (row.cleared_fields?.length) subscriber.cleared = row.cleared_fields;
  if (present(row.is_online)) subscriber.isOnline = row.is_online;
  if (present(row.last_online_at)) subscriber.lastOnlineAt = row.last_online_at;
  return subscriber;
}

/** `data` travels as JSON text into a jsonb parameter; null clears it. */
const columnValue = (field: string, value: unknown) => (field === 'data' && value !== null ? JSON.stringify(value) : value);
const placeholder = (field: string, n: number) => (field === 'data' ? `$${n}::jsonb` : `$${n}`);

/** The cleared-fields mark after a change: fields it sets ($changed) lose it, the ones it nulls ($nulled) gain it. */
const nextCleared = (current: string, nulled: string, changed: string) =>
  `ARRAY(SELECT DISTINCT f FROM unnest(${current} || ${nulled}::text[]) AS f WHERE f = ANY(${nulled}::text[]) OR NOT f = ANY(${changed}::text[]) ORDER BY f)`;

@Injectable()
export class SqlSubscriberRepository implements SubscriberRepository {
  /** Grouped by environment: the delivery worker reads many subscribers of one environment at once. */
  private readonly bySubscriberId = new CallBatcher<string, Subscriber | null>(async (environmentId, subscriberIds) => {
    const rows = await this.sql.query('SELECT * FROM subscribers WHERE environment_id = $1 AND subscriber_id = ANY($2::text[])', [
      environmentId,
      textArray(subscriberIds),
    ]);
    const found = new Map(rows.map((row) => [row.subscriber_id as string, row]));
    return subscriberIds.map((id) => (found.has(id) ? toSubscriber(found.get(id)) : null));
  });

  private readonly trigrams: TrigramStatistics;

  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {
    this.trigrams = new TrigramStatistics(
      sql,
      Object.values(SEARCHED).map((searched) => searched.statistics),
    );
  }

  findBySubscriberId(scope: EnvironmentScope, subscriberId: string): Promise<Subscriber | null> {
    return this.bySubscriberId.run(scope.environmentId, subscriberId);
  }

  async findManyByIds(scope: EnvironmentScope, ids: string[]): Promise<Subscriber[]> {
    if (ids.length === 0) return [];
    const rows = await this.sql.query('SELECT * FROM subscribers WHERE environment_id = $1 AND id = ANY($2::text[]) ORDER BY id', [scope.environmentId, ids]);
    return rows.map(toSubscriber);
  }

  async findManyBySubscriberIds(scope: EnvironmentScope, subscriberIds: string[]): Promise<Subscriber[]> {
    if (subscriberIds.length === 0) return [];
    const rows = await this.sql.query('SELECT * FROM subscribers WHERE environment_id = $1 AND subscriber_id = ANY($2::text[]) ORDER BY id', [
      scope.environmentId,
      subscriberIds,
    ]);
    return rows.map(toSubscriber);
  }

  async listBatch(scope: EnvironmentScope, afterCursor: string | null, limit: number): Promise<{ subscribers: Subscriber[]; next: string | null }> {
    const rows = await this.sql.query('SELECT * FROM subscribers WHERE environment_id = $1 AND ($2::text IS NULL OR id > $2::text) ORDER BY id LIMIT $3', [
      scope.environmentId,
      afterCursor,
      limit + 1,
    ]);
    const batch = rows.slice(0, limit).map(toSubscriber);
    return { subscribers: batch, next: rows.length > limit ? batch[batch.length - 1].id : null };
  }

  async listPage(scope: EnvironmentScope, { page, limit }: PageRequest): Promise<{ items: Subscriber[]; hasMore: boolean }> {
    const rows = await this.sql.query('SELECT * FROM subscribers WHERE environment_id = $1 ORDER BY id LIMIT $2 OFFSET $3', [
      scope.environmentId,
      limit + 1,
      page * limit,
    ]);
    return { items: rows.slice(0, limit).map(toSubscriber), hasMore: rows.length > limit };
  }

  async insert(s: Subscriber): Promise<boolean> {
    const fields = Object.keys(COLUMNS).filter((f) => present((s as any)[f])) as (keyof typeof COLUMNS)[];
    const params: unknown[] = [s.id, s.organizationId, s.environmentId, s.subscriberId, JSON.stringify(s.channels), s.createdAt, s.updatedAt, s.cleared ?? []];
    const values = fields.map((f) => placeholder(f, params.push(columnValue(f, (s as any)[f]))));
    const rows = await this.sql.query(
      `INSERT INTO subscribers (id, organization_id, environment_id, subscriber_id, channels, created_at, updated_at, cleared_fields${fields.map((f) => `, ${COLUMNS[f]}`).join('')})
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8::text[]${values.map((v) => `, ${v}`).join('')})
       ON CONFLICT (environment_id, subscriber_id) DO NOTHING RETURNING id`,
      params,
    );
    return rows.length === 1;
  }

  async upsert(scope: EnvironmentScope, upsert: SubscriberUpsert): Promise<{ subscriber: Subscriber; created: boolean }> {
    const fields = this.changedFields(upsert.changes);
    if (!fields.length) {
      // Nothing to change (a trigger naming a known subscriber): a read, not a write that locks the row.
      const existing = await this.findBySubscriberId(scope, upsert.subscriberId);
      if (existing) return { subscriber: existing, created: false };
    }
    const params: unknown[] = [upsert.id, scope.organizationId, scope.environmentId, upsert.subscriberId, upsert.now, clearedBy(upsert.changes)];
    const values = fields.map((f) => placeholder(f, params.push(columnValue(f, upsert.changes[f]))));
    // With nothing to change the no-op assignment still locks and returns the existing row.
    const assignments = fields.length
      ? [
          ...fields.map((f) => `${COLUMNS[f]} = EXCLUDED.${COLUMNS[f]}`),
          `cleared_fields = ${nextCleared('subscribers.cleared_fields', '$6', `$${params.push(fields)}`)}`,
          'updated_at = EXCLUDED.updated_at',
        ]
      : ['subscriber_id = EXCLUDED.subscriber_id'];
    const [row] = await this.sql.query(
      `INSERT INTO subscribers (id, organization_id, environment_id, subscriber_id, channels, created_at, updated_at, cleared_fields${fields.map((f) => `, ${COLUMNS[f]}`).join('')})
       VALUES ($1, $2, $3, $4, '[]'::jsonb, $5, $5, $6::text[]${values.map((v) => `, ${v}`).join('')})
       ON CONFLICT (environment_id, subscriber_id) DO UPDATE SET ${assignments.join(', ')}
       RETURNING *, (xmax = 0) AS inserted`,
      params,
    );
    return { subscriber: toSubscriber(row), created: row.inserted === true };
  }

  async update(scope: EnvironmentScope, subscriberId: string, changes: SubscriberChanges, now: Date): Promise<Subscriber | null> {
    const fields = this.changedFields(changes);
    const params: unknown[] = [scope.environmentId, subscriberId, now, clearedBy(changes), fields];
    const assignments = fields.map((f) => `${COLUMNS[f]} = ${placeholder(f, params.push(columnValue(f, changes[f])))}`);
    const [row] = await this.sql.query(
      `UPDATE subscribers SET ${[...assignments, `cleared_fields = ${nextCleared('cleared_fields', '$4', '$5')}`, 'updated_at = $3'].join(', ')}
       WHERE environment_id = $1 AND subscriber_id = $2 RETURNING *`,
      params,
    );
    return row ? toSubscriber(row) : null;
  }

  async replaceChannels(
    scope: EnvironmentScope,
    subscriberId: string,
    expected: SubscriberChannel[],
    next: SubscriberChannel[],
    now: Date,
  ): Promise<Subscriber | null> {
    // jsonb equality ignores key order, so the list read back compares equal to what is stored.
    const [row] = await this.sql.query(
      `UPDATE subscribers SET channels = $3::jsonb, updated_at = $5
       WHERE environment_id = $1 AND subscriber_id = $2 AND channels = $4::jsonb RETURNING *`,
      [scope.environmentId, subscriberId, JSON.stringify(next), JSON.stringify(expected), now],
    );
    return row ? toSubscriber(row) : null;
  }

  async delete(scope: EnvironmentScope, subscriberId: string): Promise<boolean> {
    const rows = await this.sql.query('DELETE FROM subscribers WHERE environment_id = $1 AND subscriber_id = $2 RETURNING id', [
      scope.environmentId,
      subscriberId,
    ]);
    return rows.length === 1;
  }

  async search(scope: EnvironmentScope, search: SubscriberSearch): Promise<CursorPage<Subscriber>> {
    const { filter } = search;
    const texts = (Object.keys(SEARCHED) as (keyof typeof SEARCHED)[]).filter((field) => filter[field]);
    const prefilters = await Promise.all(
      texts.map(async (field) => {
        const value = filter[field]!;
        return { field, value, prefilter: prefilterPattern(value, await this.trigrams.commonIn(SEARCHED[field].statistics)) };
      }),
    );
    return cursorListPage(
      this.sql,
      {
        table: 'subscribers',
        scope,
        orderColumn: ORDER_COLUMNS[search.orderBy],
        request: search,
        where: (param) => [
          // The prefilter first: both go to the trigram index, the exact pattern only probing what the prefilter leaves.
          ...prefilters.flatMap(({ field, value, prefilter }) => [
            ...(prefilter ? [`${SEARCHED[field].text} ILIKE ${param(prefilter)} ESCAPE '\\'`] : []),
            `${SEARCHED[field].text} ILIKE ${param(containsPattern(value))} ESCAPE '\\'`,
          ]),
          ...(filter.subscriberId ? [`subscriber_id = ${param(filter.subscriberId)}`] : []),
        ],
      },
      toSubscriber,
    );
  }

  private changedFields(changes: SubscriberChanges): (keyof typeof COLUMNS)[] {
    return (Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]).filter((f) => changes[f] !== undefined);
  }
}
