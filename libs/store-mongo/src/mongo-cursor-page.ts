import { CursorPage, CursorRequest, TOTAL_COUNT_CAP } from '@app/kernel';
import { mongo } from 'mongoose';
import { Doc } from './mongo-documents';

type Filter = mongo.Filter<Doc>;

/** A field a cursor list sorts on; `_id` breaks ties. */
export type CursorOrderField = '_id' | 'createdAt' | 'updatedAt' | 'key';

/** Where a document sits in the sort: its order value and its id. */
export interface CursorPosition {
  value: unknown;
  id: string;
}

/** Every condition holds (an empty list: everything). */
export function allOf(...filters: Filter[]): Filter {
  const kept = filters.filter((filter) => Object.keys(filter).length > 0);
  return kept.length === 0 ? {} : kept.length === 1 ? kept[0] : { $and: kept };
}

/** A case-insensitive substring match, the caller's regex characters taken literally (SQL's `ILIKE '%…%'`). */
export function containsIgnoringCase(value: string): { $regex: string; $options: 'i' } {
  return { $regex: value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), $options: 'i' };
}

/**
 * The documents beyond `pivot` in (field, _id) order: `>` after it ascending, `<` before it;
 * `inclusive` takes the pivot too. A missing pivot (an unknown cursor) matches nothing, as SQL's
 * comparison with NULL does.
 */
export function beyond(field: CursorOrderField, pivot: CursorPosition | null, direction: '>' | '<', inclusive: boolean): Filter {
  if (!pivot) return { _id: { $in: [] } };
  const strict = direction === '>' ? '$gt' : '$lt';
  const tie = inclusive ? (direction === '>' ? '$gte' : '$lte') : strict;
  if (field === '_id') return { _id: { [tie]: pivot.id } };
  return { $or: [{ [field]: { [strict]: pivot.value } }, { [field]: pivot.value, _id: { [tie]: pivot.id } }] };
}

export interface CursorPagePlan {
  /** The page: its filter, sort and how many to read (one more than the limit tells whether more exist). */
  page: { filter: Filter; sort: Record<string, 1 | -1>; limit: number };
  /** Whether the page was read backwards (a `before` cursor): its rows are reversed once read. */
  backwards: boolean;
  /** The filter of the whole set, for the capped count. */
  countFilter: Filter;
  /** The probe for rows beyond the given document in the requested order (`forward`) or before it. */
  probe(position: CursorPosition, forward: boolean): Filter;
}

/**
 * Novu's cursor pagination as the SQL adapter runs it (sql-cursor-page.ts): sort by (field, _id);
 * `after` is strictly after its cursor in the requested order (`includeCursor` makes it
 * inclusive), `before` pages backwards; limit + 1 rows tell whether more exist.
 * `after`/`before` are the cursors' positions as read from the store (null: cursor unknown).
 */
export function cursorPagePlan(
  filter: Filter,
  field: CursorOrderField,
  request: CursorRequest,
  cursors: { after?: CursorPosition | null; before?: CursorPosition | null },
): CursorPagePlan {
  const descending = request.orderDirection === 'DESC';
  const forward = descending ? '<' : '>';
  const backward = descending ? '>' : '<';
  const backwards = request.before !== undefined;
  const conditions: Filter[] = [filter];
  if (request.after !== undefined) conditions.push(beyond(field, cursors.after ?? null, forward, request.includeCursor));
  if (request.before !== undefined) conditions.push(beyond(field, cursors.before ?? null, backward, request.includeCursor));
  const direction: 1 | -1 = (backwards ? !descending : descending) ? -1 : 1;
  const sort: Record<string, 1 | -1> = field === '_id' ? { _id: direction } : { [field]: direction, _id: direction };
  return {
    page: { filter: allOf(...conditions), sort, limit: request.limit + 1 },
    backwards,
    countFilter: filter,
    probe: (position, ahead) => allOf(filter, beyond(field, position, ahead ? forward : backward, false)),
  };
}

export interface CursorListQuery {
  collection: mongo.Collection<Doc>;
  /** The environment the cursors are looked up in (whatever the other filters). */
  environmentId: string;
  /** The filtered set the list walks (the environment included). */
  filter: Filter;
  field: CursorOrderField;
  request: CursorRequest;
}

/**
 * Runs a cursorPagePlan: reads the cursors' positions (an unknown `after` or `before` gives an
 * empty page), the page, the capped count beside it, and probes for `next`/`previous`.
 */
export async function cursorListPage<T>(query: CursorListQuery, toItem: (doc: Doc) => T): Promise<CursorPage<T>> {
  const { collection, field, request } = query;
  const empty: CursorPage<T> = { items: [], next: null, previous: null, totalCount: 0, totalCountCapped: false };
  const positionOf = async (id: string | undefined): Promise<CursorPosition | null | undefined> => {
    if (id === undefined) return undefined;
    const doc = await collection.findOne({ environmentId: query.environmentId, _id: id }, { projection: { [field]: 1 } });
    return doc ? { value: doc[field], id: doc._id } : null;
  };
  const [after, before] = await Promise.all([positionOf(request.after), positionOf(request.before)]);
  // As SQL: the cursor that decides is `after` when given, else `before`.
  if ((request.after !== undefined ? after : before) === null) return empty;

  const plan = cursorPagePlan(query.filter, field, request, { after, before });
  const counted = collection.countDocuments(plan.countFilter, { limit: TOTAL_COUNT_CAP + 1 });
  counted.catch(() => undefined); // awaited below; a page failure must not leave it unhandled
  const docs = await collection.find(plan.page.filter, { sort: plan.page.sort, limit: plan.page.limit }).toArray();
  const more = docs.length > request.limit;
  const pageDocs = docs.slice(0, request.limit);
  if (plan.backwards) pageDocs.reverse();

  const exists = async (doc: mongo.WithId<Doc> | undefined, forward: boolean) =>
    doc !== undefined && (await collection.findOne(plan.probe({ value: doc[field], id: doc._id }, forward), { projection: { _id: 1 } })) !== null;
  const first = pageDocs[0];
  const last = pageDocs[pageDocs.length - 1];
  let next: string | null = null;
  let previous: string | null = null;
  if (plan.backwards) {
    previous = more && first ? first._id : null;
    next = (await exists(last, true)) ? last._id : null;
  } else {
    next = more && last ? last._id : null;
    // A first page (no cursor) starts the sorted set: nothing comes before it.
    previous = request.after !== undefined && (await exists(first, false)) ? first._id : null;
  }
  const count = await counted;
  return {
    items: pageDocs.map(toItem),
    next,
    previous,
    totalCount: Math.min(count, TOTAL_COUNT_CAP),
    totalCountCapped: count > TOTAL_COUNT_CAP,
  };
}
