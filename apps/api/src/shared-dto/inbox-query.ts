import { InvalidRequestError } from '@app/kernel';
import { InboxFilter } from '@app/inbox';

/**
 * The Inbox client's query (`tags[]=a&tags[]=b`, `severity[]=high`, `data={json}`, `read=true`),
 * read from the raw query string so it does not depend on Express's query parser.
 */
export function readQuery(url: string): URLSearchParams {
  const index = url.indexOf('?');
  return new URLSearchParams(index < 0 ? '' : url.slice(index + 1));
}

function list(params: URLSearchParams, name: string): string[] | undefined {
  const values = [...params.getAll(name), ...params.getAll(`${name}[]`)];
  for (const [key, value] of params) if (new RegExp(`^${name}\\[\\d+\\]\\[\\]$`).test(key)) values.push(value);
  return values.length ? values : undefined;
}

function flag(params: URLSearchParams, name: string): boolean | undefined {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  if (raw !== 'true' && raw !== 'false') throw new InvalidRequestError('invalid_query', `${name} must be true or false`);
  return raw === 'true';
}

export function dataObject(raw: unknown, where = 'data'): Record<string, unknown> | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new InvalidRequestError('invalid_query', `${where} must be a JSON object`);
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new InvalidRequestError('invalid_query', `${where} must be a JSON object`);
  return value as Record<string, unknown>;
}

export function stringList(raw: unknown, where: string): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const values = Array.isArray(raw) ? raw : [raw];
  if (!values.every((value) => typeof value === 'string')) throw new InvalidRequestError('invalid_query', `${where} must be strings`);
  return values;
}

/**
 * Tags as Novu's clients send them: one tag, a list (any of them), or `{and: [{or: [...]}]}`. One
 * `or` group is the same list; an empty object (what @novu/api sends for its untyped tags) is none.
 */
export function tagsOf(raw: unknown, where: string): string[] | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return stringList(raw, where);
  const { and, ...rest } = raw as { and?: unknown };
  if (and === undefined && Object.keys(rest).length === 0) return undefined;
  const groups = Array.isArray(and) ? and : [];
  if (Object.keys(rest).length || groups.length !== 1 || !groups[0] || typeof groups[0] !== 'object') {
    throw new InvalidRequestError('invalid_query', `${where} must be a list of tags (any of them) or {and: [{or: [tags]}]} with one group`);
  }
  return stringList((groups[0] as { or?: unknown }).or, where);
}

/** A time given as Unix milliseconds (Novu's createdGte / createdLte). */
function millis(params: URLSearchParams, name: string): Date | undefined {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^\d+(\.\d+)?$/.test(raw)) throw new InvalidRequestError('invalid_query', `${name} must be a Unix timestamp in milliseconds`);
  return new Date(Number(raw));
}

export function filterFromQuery(params: URLSearchParams): InboxFilter {
  return {
    tags: list(params, 'tags'),
    read: flag(params, 'read'),
    seen: flag(params, 'seen'),
    archived: flag(params, 'archived'),
    snoozed: flag(params, 'snoozed'),
    data: dataObject(params.get('data') ?? undefined),
    severity: list(params, 'severity'),
    createdGte: millis(params, 'createdGte'),
    createdLte: millis(params, 'createdLte'),
  };
}

/** One element of `filters` of the count route, as the client sends it (echoed back as given). */
export function filterFromObject(raw: unknown): InboxFilter {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new InvalidRequestError('invalid_query', 'each filter must be an object');
  const given = raw as Record<string, unknown>;
  const bool = (name: string) => {
    const value = given[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') throw new InvalidRequestError('invalid_query', `filter.${name} must be a boolean`);
    return value;
  };
  return {
    tags: tagsOf(given.tags, 'filter.tags'),
    read: bool('read'),
    seen: bool('seen'),
    archived: bool('archived'),
    snoozed: bool('snoozed'),
    data: dataObject(given.data, 'filter.data'),
    severity: stringList(given.severity, 'filter.severity'),
  };
}

/** The `filters` of a count route: a JSON array of at most 30 filter objects, each also answered back as given. */
export function countFilters(raw: string): { given: unknown[]; filters: InboxFilter[] } {
  let given: unknown;
  try {
    given = JSON.parse(raw);
  } catch {
    throw new InvalidRequestError('invalid_query', 'filters must be a JSON array');
  }
  if (!Array.isArray(given) || given.length > 30) throw new InvalidRequestError('invalid_query', 'filters must be a JSON array of at most 30 filters');
  return { given, filters: given.map(filterFromObject) };
}

export function pageFromQuery(params: URLSearchParams): { limit: number; after?: string; offset?: number } {
  const limit = params.get('limit') ?? '10';
  if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 100)
    throw new InvalidRequestError('invalid_query', 'limit must be an integer from 1 to 100');
  const offset = params.get('offset');
  if (offset !== null && !/^\d+$/.test(offset)) throw new InvalidRequestError('invalid_query', 'offset must be a non-negative integer');
  return { limit: Number(limit), after: params.get('after') || undefined, offset: offset === null ? undefined : Number(offset) };
}

/** What a bulk change's body narrows it to: tags (any) and data. */
export function bulkFilter(body: { tags?: unknown; data?: unknown } | undefined): Pick<InboxFilter, 'tags' | 'data'> {
  const filter: Pick<InboxFilter, 'tags' | 'data'> = {};
  const tags = tagsOf(body?.tags, 'tags');
  if (tags?.length) filter.tags = tags;
  const data = dataObject(body?.data);
  if (data) filter.data = data;
  return filter;
}
