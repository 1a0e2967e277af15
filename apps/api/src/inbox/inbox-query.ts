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

export function filterFromQuery(params: URLSearchParams): InboxFilter {
  return {
    tags: list(params, 'tags'),
    read: flag(params, 'read'),
    seen: flag(params, 'seen'),
    archived: flag(params, 'archived'),
    snoozed: flag(params, 'snoozed'),
    data: dataObject(params.get('data') ?? undefined),
    severity: list(params, 'severity'),
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
    tags: stringList(given.tags, 'filter.tags'),
    read: bool('read'),
    seen: bool('seen'),
    archived: bool('archived'),
    snoozed: bool('snoozed'),
    data: dataObject(given.data, 'filter.data'),
    severity: stringList(given.severity, 'filter.severity'),
  };
}

export function pageFromQuery(params: URLSearchParams): { limit: number; after?: string; offset?: number } {
  const limit = params.get('limit') ?? '10';
  if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 100)
    throw new InvalidRequestError('invalid_query', 'limit must be an integer from 1 to 100');
  const offset = params.get('offset');
  if (offset !== null && !/^\d+$/.test(offset)) throw new InvalidRequestError('invalid_query', 'offset must be a non-negative integer');
  return { limit: Number(limit), after: params.get('after') || undefined, offset: offset === null ? undefined : Number(offset) };
}
