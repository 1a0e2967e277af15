/**
 * Caller-shaped JSON (payloads, overrides, data, steps, recipients…) as documents hold it.
 *
 * The SQL stores keep it as jsonb; this codec gives the same round trip on MongoDB:
 * - JSON's own values only: a Date becomes its ISO text and undefined entries vanish, as through
 *   JSON.stringify into jsonb;
 * - object keys sorted, so two equal values are equal documents (jsonb compares regardless of key
 *   order; MongoDB compares documents field by field, in order) — compare-and-set on a stored
 *   value and equality filters rely on it;
 * - `%`, `.` and `$` in keys escaped (`%25`, `%2E`, `%24`; the empty key as `%`), because MongoDB
 *   reads a dot as a path and a leading `$` as an operator, and callers' keys may hold either.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A key as a document field name: never holds `.` or `$`, never empty. */
export function escapeKey(key: string): string {
  if (key === '') return '%';
  return key.replace(/[%.$]/g, (c) => (c === '%' ? '%25' : c === '.' ? '%2E' : '%24'));
}

export function unescapeKey(field: string): string {
  if (field === '%') return '';
  return field.replace(/%(25|2E|24)/g, (_, code: string) => (code === '25' ? '%' : code === '2E' ? '.' : '$'));
}

function encode(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(encode);
  if (value !== null && typeof value === 'object') {
    const out: { [key: string]: JsonValue } = {};
    for (const key of Object.keys(value).sort()) out[escapeKey(key)] = encode(value[key]);
    return out;
  }
  return value;
}

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [field, item] of Object.entries(value)) out[unescapeKey(field)] = decode(item);
    return out;
  }
  return value;
}

/** Caller JSON → the value a document stores; undefined stays undefined (the field is left out). */
export function toStoredJson(value: unknown): JsonValue | undefined {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value);
  if (text === undefined) return undefined;
  return encode(JSON.parse(text) as JsonValue);
}

/** A stored value → caller JSON. */
export function fromStoredJson<T = unknown>(value: unknown): T {
  return decode(value) as T;
}

/** The document path of a caller key under a stored JSON field (`payload` + `a.b` → `payload.a%2Eb`). */
export function storedJsonPath(field: string, key: string): string {
  return `${field}.${escapeKey(key)}`;
}
