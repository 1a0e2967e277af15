import { hash, randomBytes } from 'node:crypto';

// 24-hex ids shaped like MongoDB ObjectIds (what Novu clients expect), sortable by creation
// second so cursors and "newest first" can order by id alone.
const processUnique = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);

const secondHex = (now: number): string =>
  Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0');

export function newId(now: number = Date.now()): string {
  counter = (counter + 1) % 0xffffff;
  return secondHex(now) + processUnique + counter.toString(16).padStart(6, '0');
}

export function isId(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{24}$/.test(value);
}

/**
 * A 24-hex id derived from its parts (sha256), for records that a retry must not create twice:
 * the same parts always give the same id, so an insert-if-absent on it is idempotent.
 */
export function deterministicId(...parts: string[]): string {
  // JSON keeps the parts apart whatever characters they contain (["a","b"] ≠ ["ab"]).
  // One-shot `hash`: the same digest as createHash's, without a Hash object per id (several per delivery).
  return hash('sha256', JSON.stringify(parts), 'hex').slice(0, 24);
}

/**
 * A deterministic id that starts with the second `at` (8 hex, as newId), then 16 hex of the parts'
 * hash. Ids derived together sort together, so their inserts touch the newest pages of an index,
 * where deterministicId's land on a random page each: in a store of millions of rows those cost
 * PostgreSQL about half as much again per delivery (docs/performance-log.md). `at` must be as fixed as
 * the parts (a trigger's acceptance time, not the time of the attempt).
 */
export function timeOrderedDeterministicId(at: Date, ...parts: string[]): string {
  return secondHex(at.getTime()) + deterministicId(...parts).slice(0, 16);
}
