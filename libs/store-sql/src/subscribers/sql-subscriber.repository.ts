import { Inject, Injectable } from '@nestjs/common';
import { CallBatcher, CursorPage, EnvironmentScope, PageRequest } from '@app/kernel';
import { Subscriber, SubscriberChanges, SubscriberChannel, SubscriberRepository, SubscriberSearch, SubscriberUpsert, clearedBy } from '@app/subscribers';
import { SQL_CLIENT, SqlClient, textArray } from '../sql-client';
import { Sql, join, raw, sql } from '../sql-statement';
import { NewRow, assignments, insertInto } from '../sql-table';
import { SubscriberRow, subscribers } from '../tables';
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

type ProfileField = keyof typeof COLUMNS;
const COLUMN_ENTRIES = Object.entries(COLUMNS) as [ProfileField, (typeof COLUMNS)[ProfileField]][];

const present = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;

export function toSubscriber(row: SubscriberRow): Subscriber {
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
    if (present(row[column])) Object.assign(subscriber, { [field]: row[column] });
  }
  if (row.cleared_fields?.length) subscriber.cleared = row.cleared_fields;
  if (present(row.is_online)) subscriber.isOnline = row.is_online;
  if (present(row.last_online_at)) subscriber.lastOnlineAt = row.last_online_at;
  return subscriber;
}

/** The columns of `fields` with their values in `source` (null clears one). */
function profileColumns(source: SubscriberChanges, fields: readonly ProfileField[]): Partial<SubscriberRow> {
  const columns: Partial<SubscriberRow> = {};
  for (const field of fields) Object.assign(columns, { [COLUMNS[field]]: source[field] });
  return columns;
}

/** The cleared-fields mark after a change: fields it sets (`changed`) lose it, the ones it nulls (`nulled`) gain it. */
const nextCleared = (current: Sql, nulled: Sql, changed: readonly ProfileField[]) =>
  sql`ARRAY(SELECT DISTINCT f FROM unnest(${current} || ${nulled}) AS f WHERE f = ANY(${nulled}) OR NOT f = ANY(${changed}::text[]) ORDER BY f)`;

@Injectable()
export class SqlSubscriberRepository implements SubscriberRepository {
  /** Grouped by environment: the delivery worker reads many subscribers of one environment at once. */
  private readonly bySubscriberId = new CallBatcher<string, Subscriber | null>(async (environmentId, subscriberIds) => {
    const rows = await this.sql.query<SubscriberRow>(
      sql`SELECT * FROM subscribers WHERE environment_id = ${environmentId} AND subscriber_id = ANY(${textArray(subscriberIds)}::text[])`,
    );
    const found = new Map(rows.map((row) => [row.subscriber_id, row]));
    return subscriberIds.map((id) => {
      const row = found.get(id);
      return row ? toSubscriber(row) : null;
    });
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
    const rows = await this.sql.query<SubscriberRow>(
      sql`SELECT * FROM subscribers WHERE environment_id = ${scope.environmentId} AND id = ANY(${ids}::text[]) ORDER BY id`,
    );
    return rows.map(toSubscriber);
  }

  async findManyBySubscriberIds(scope: EnvironmentScope, subscriberIds: string[]): Promise<Subscriber[]> {
    if (subscriberIds.length === 0) return [];
    const rows = await this.sql.query<SubscriberRow>(
      sql`SELECT * FROM subscribers WHERE environment_id = ${scope.environmentId} AND subscriber_id = ANY(${subscriberIds}::text[]) ORDER BY id`,
    );
    return rows.map(toSubscriber);
  }

  async listBatch(scope: EnvironmentScope, afterCursor: string | null, limit: number): Promise<{ subscribers: Subscriber[]; next: string | null }> {
    const rows = await this.sql.query<SubscriberRow>(
      sql`SELECT * FROM subscribers WHERE environment_id = ${scope.environmentId} AND (${afterCursor}::text IS NULL OR id > ${afterCursor}::text)
          ORDER BY id LIMIT ${limit + 1}`,
    );
    const batch = rows.slice(0, limit).map(toSubscriber);
    return { subscribers: batch, next: rows.length > limit ? batch[batch.length - 1].id : null };
  }

  async listPage(scope: EnvironmentScope, { page, limit }: PageRequest): Promise<{ items: Subscriber[]; hasMore: boolean }> {
    const rows = await this.sql.query<SubscriberRow>(
      sql`SELECT * FROM subscribers WHERE environment_id = ${scope.environmentId} ORDER BY id LIMIT ${limit + 1} OFFSET ${page * limit}`,
    );
    return { items: rows.slice(0, limit).map(toSubscriber), hasMore: rows.length > limit };
  }

  async insert(s: Subscriber): Promise<boolean> {
    const row: NewRow<typeof subscribers> = {
      id: s.id,
      organization_id: s.organizationId,
      environment_id: s.environmentId,
      subscriber_id: s.subscriberId,
      channels: s.channels,
      created_at: s.createdAt,
      updated_at: s.updatedAt,
      cleared_fields: s.cleared ?? [],
      ...profileColumns(
        s,
        COLUMN_ENTRIES.map(([field]) => field).filter((field) => present(s[field])),
      ),
    };
    const rows = await this.sql.query(sql`${insertInto(subscribers, [row])} ON CONFLICT (environment_id, subscriber_id) DO NOTHING RETURNING id`);
    return rows.length === 1;
  }

  async upsert(scope: EnvironmentScope, upsert: SubscriberUpsert): Promise<{ subscriber: Subscriber; created: boolean }> {
    const fields = this.changedFields(upsert.changes);
    if (!fields.length) {
      // Nothing to change (a trigger naming a known subscriber): a read, not a write that locks the row.
      const existing = await this.findBySubscriberId(scope, upsert.subscriberId);
      if (existing) return { subscriber: existing, created: false };
    }
    const row: NewRow<typeof subscribers> = {
      id: upsert.id,
      organization_id: scope.organizationId,
      environment_id: scope.environmentId,
      subscriber_id: upsert.subscriberId,
      channels: [],
      created_at: upsert.now,
      updated_at: upsert.now,
      cleared_fields: clearedBy(upsert.changes),
      ...profileColumns(upsert.changes, fields),
    };
    // With nothing to change the no-op assignment still locks and returns the existing row.
    const assignments = fields.length
      ? [
          ...fields.map((f) => raw(`${COLUMNS[f]} = EXCLUDED.${COLUMNS[f]}`)),
          sql`cleared_fields = ${nextCleared(raw('subscribers.cleared_fields'), raw('EXCLUDED.cleared_fields'), fields)}`,
          raw('updated_at = EXCLUDED.updated_at'),
        ]
      : [raw('subscriber_id = EXCLUDED.subscriber_id')];
    const [stored] = await this.sql.query<SubscriberRow & { inserted: boolean }>(
      sql`${insertInto(subscribers, [row])}
          ON CONFLICT (environment_id, subscriber_id) DO UPDATE SET ${join(assignments)}
          RETURNING *, (xmax = 0) AS inserted`,
    );
    return { subscriber: toSubscriber(stored), created: stored.inserted === true };
  }

  async update(scope: EnvironmentScope, subscriberId: string, changes: SubscriberChanges, now: Date): Promise<Subscriber | null> {
    const fields = this.changedFields(changes);
    const set = assignments(subscribers, { ...profileColumns(changes, fields), updated_at: now });
    const [row] = await this.sql.query<SubscriberRow>(
      sql`UPDATE subscribers SET ${set}, cleared_fields = ${nextCleared(raw('cleared_fields'), sql`${clearedBy(changes)}::text[]`, fields)}
          WHERE environment_id = ${scope.environmentId} AND subscriber_id = ${subscriberId} RETURNING *`,
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
    const [row] = await this.sql.query<SubscriberRow>(
      sql`UPDATE subscribers SET ${assignments(subscribers, { channels: next, updated_at: now })}
          WHERE environment_id = ${scope.environmentId} AND subscriber_id = ${subscriberId} AND channels = ${JSON.stringify(expected)}::jsonb RETURNING *`,
    );
    return row ? toSubscriber(row) : null;
  }

  async delete(scope: EnvironmentScope, subscriberId: string): Promise<boolean> {
    const rows = await this.sql.query(
      sql`DELETE FROM subscribers WHERE environment_id = ${scope.environmentId} AND subscriber_id = ${subscriberId} RETURNING id`,
    );
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
        where: [
          // The prefilter first: both go to the trigram index, the exact pattern only probing what the prefilter leaves.
          ...prefilters.flatMap(({ field, value, prefilter }) => [
            ...(prefilter ? [sql`${raw(SEARCHED[field].text)} ILIKE ${prefilter} ESCAPE '\\'`] : []),
            sql`${raw(SEARCHED[field].text)} ILIKE ${containsPattern(value)} ESCAPE '\\'`,
          ]),
          ...(filter.subscriberId ? [sql`subscriber_id = ${filter.subscriberId}`] : []),
        ],
      },
      toSubscriber,
    );
  }

  private changedFields(changes: SubscriberChanges): ProfileField[] {
    return COLUMN_ENTRIES.map(([field]) => field).filter((f) => changes[f] !== undefined);
  }
}
