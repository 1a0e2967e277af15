/**
 * The longest identifier the service takes (subscriberId, topic key, tenant identifier,
 * transactionId, integration identifier, path parameters): 256 characters fit every unique index
 * of the store with room to spare (PostgreSQL's B-tree limit is ~2,700 bytes; 256 characters are
 * at most 1,024 bytes of UTF-8). Workflow trigger identifiers are shorter still (128).
 */
export const IDENTIFIER_MAX_LENGTH = 256;

/** Why a value cannot be an identifier, or undefined when it can. */
export function identifierProblem(value: string, name: string): string | undefined {
  if (!value.trim()) return `${name} must not be empty`;
  if (value.length > IDENTIFIER_MAX_LENGTH) return `${name} must be at most ${IDENTIFIER_MAX_LENGTH} characters (got ${value.length})`;
  return undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A string PostgreSQL (and JSON consumers) can hold: no NUL, no lone UTF-16 surrogate. */
export function storableStringProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(value)) return 'must be well-formed Unicode (a lone UTF-16 surrogate cannot be stored)';
  return undefined;
}

/** The first string inside `value` that cannot be stored, with its path (`payload.items.0.name`). */
export function findUnstorableString(value: unknown, path = ''): { path: string; problem: string; value: string } | undefined {
  if (typeof value === 'string') {
    const problem = storableStringProblem(value);
    return problem ? { path, problem, value } : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = storableStringProblem(key);
    const at = path ? `${path}.${key}` : key;
    if (keyProblem) return { path: at, problem: `key ${keyProblem}`, value: key };
    const found = findUnstorableString(item, at);
    if (found) return found;
  }
  return undefined;
}
