import { hash, randomBytes } from 'node:crypto';

// 24-hex ids shaped like MongoDB ObjectIds (what Novu clients expect), sortable by creation
// second so cursors and "newest first" can order by id alone.
const processUnique = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);

export function newId(now: number = Date.now()): string {
  counter = (counter + 1) % 0xffffff;
  const seconds = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + processUnique + counter.toString(16).padStart(6, '0');
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
