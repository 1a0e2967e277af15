import { StoreRejectedError, StoreUnavailableError } from '@app/kernel';

/** The server's code for a write that breaks a unique index (E11000); 11001 and 12582 are its older spellings. */
const DUPLICATE_KEY_CODES = new Set([11000, 11001, 12582]);

/**
 * Codes of data the server refuses whatever the moment: bad values, field names it cannot hold,
 * documents over 16 MB, a failed validation. The same write will fail again.
 */
const REJECTED_CODES = new Set([...DUPLICATE_KEY_CODES, 2, 52, 55, 56, 57, 121, 10334, 17419, 17420]);

/**
 * The server cannot be reached or cannot serve now: the driver's network and server-selection
 * errors, and the server's codes for a node shutting down or stepping down (HostUnreachable,
 * HostNotFound, NetworkTimeout, ShutdownInProgress, PrimarySteppedDown, SocketException,
 * NotWritablePrimary, InterruptedAtShutdown, InterruptedDueToReplStateChange, NotPrimaryNoSecondaryOk,
 * NotPrimaryOrSecondary). The same operation may succeed once a primary answers again.
 */
const UNAVAILABLE_CODES = new Set([6, 7, 89, 91, 189, 9001, 10107, 11600, 11602, 13435, 13436]);
const UNAVAILABLE_NAMES = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoPoolClearedError',
  'PoolClearedError',
  'PoolClearedOnNetworkError',
  'MongoWaitQueueTimeoutError',
]);

interface DriverError {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  writeErrors?: unknown;
  keyPattern?: unknown;
}

const asDriverError = (error: unknown): DriverError => (error !== null && typeof error === 'object' ? error : {});

/** The write errors of a bulk write (insertMany with ordered: false), as the driver reports them. */
function writeErrorsOf(error: unknown): DriverError[] {
  const list = asDriverError(error).writeErrors;
  if (Array.isArray(list)) return list.map(asDriverError);
  return list ? [asDriverError(list)] : [];
}

/** True when the write failed only because a unique index already holds the key (E11000). */
export function isDuplicateKey(error: unknown): boolean {
  const { code } = asDriverError(error);
  if (typeof code === 'number' && DUPLICATE_KEY_CODES.has(code)) return true;
  const errors = writeErrorsOf(error);
  return errors.length > 0 && errors.every((e) => typeof e.code === 'number' && DUPLICATE_KEY_CODES.has(e.code));
}

/**
 * The fields of the unique index a duplicate-key error names (`keyPattern`), so a caller that has
 * several unique indexes on a collection can tell which one refused the write.
 */
export function duplicateKeyFields(error: unknown): string[] {
  const pattern = asDriverError(error).keyPattern ?? writeErrorsOf(error)[0]?.keyPattern;
  return pattern && typeof pattern === 'object' ? Object.keys(pattern) : [];
}

/** Positions (in the batch given) of the documents an unordered insertMany skipped as duplicates. */
export function duplicateIndexes(error: unknown): number[] {
  return writeErrorsOf(error)
    .map((e) => (e as { index?: unknown }).index)
    .filter((index): index is number => typeof index === 'number');
}

/**
 * A driver error as the rest of the service sees it: the operation it came from, the server's
 * message without the values it quotes (a duplicate key prints the key, which may be anyone's
 * address), and the code. Data the server refuses becomes a StoreRejectedError (no retry helps), a
 * server that cannot be reached a StoreUnavailableError (the API answers 503, the queues wait for it).
 */
export function storeError(error: unknown, operation: string): Error {
  if (error instanceof StoreRejectedError || error instanceof StoreUnavailableError) return error;
  const driver = asDriverError(error);
  const code = typeof driver.code === 'number' ? driver.code : writeErrorsOf(error).find((e) => typeof e.code === 'number')?.code;
  const raw = typeof driver.message === 'string' ? driver.message : String(error);
  // E11000 … dup key: { email: "…" } and similar quote the document's values after a colon and a brace.
  const message = `${operation}: ${raw.replace(/\s*(dup key|collation|Failing document)[\s\S]*$/i, '').replace(/\{[\s\S]*\}/, '{…}')}`;
  if ((typeof driver.name === 'string' && UNAVAILABLE_NAMES.has(driver.name)) || (typeof code === 'number' && UNAVAILABLE_CODES.has(code))) {
    return new StoreUnavailableError(message);
  }
  const bsonRefused = driver.name === 'BSONError' || driver.name === 'BSONVersionError';
  if ((typeof code === 'number' && REJECTED_CODES.has(code)) || bsonRefused) {
    return new StoreRejectedError(message, typeof code === 'number' ? String(code) : 'BSONError');
  }
  return Object.assign(new Error(message), code !== undefined ? { code } : {});
}

/**
 * Refuses what the SQL stores cannot hold, so every store answers a write the same: the NUL
 * character (PostgreSQL refuses it in text and jsonb, and BSON keys cannot hold it), anywhere in
 * a value or a key.
 */
export function refuseUnstorable(value: unknown, seen = new Set<unknown>()): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) throw new StoreRejectedError('mongo store: the NUL character (U+0000) cannot be stored', 'nul_character');
    return;
  }
  if (value === null || typeof value !== 'object' || value instanceof Date || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const item of value) refuseUnstorable(item, seen);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    refuseUnstorable(key, seen);
    refuseUnstorable(item, seen);
  }
}

/**
 * Wraps a repository so that every method refuses unstorable arguments before it runs and answers
 * driver failures as storeError does. Duplicate keys the port expects (insert-if-absent) are
 * handled inside the methods; one that escapes them is a refusal.
 */
export function guardedRepository<T extends object>(name: string, repository: T): T {
  return new Proxy(repository, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        refuseUnstorable(args);
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } catch (error) {
          throw storeError(error, `${name}.${String(property)}`);
        }
      };
    },
  });
}
