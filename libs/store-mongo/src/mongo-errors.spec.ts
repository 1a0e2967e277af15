import { StoreRejectedError, StoreUnavailableError } from '@app/kernel';
import { duplicateIndexes, duplicateKeyFields, guardedRepository, isDuplicateKey, refuseUnstorable, storeError } from './mongo-errors';

/** Errors shaped as the driver throws them (MongoServerError, MongoBulkWriteError): plain objects with the same fields. */
const serverError = (code: number, message: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { name: 'MongoServerError', code, ...extra });

const duplicate = serverError(
  11000,
  'E11000 duplicate key error collection: test.tenants index: tenants_environment_identifier dup key: { environmentId: "e1", identifier: "acme" }',
  {
    keyPattern: { environmentId: 1, identifier: 1 },
    keyValue: { environmentId: 'e1', identifier: 'acme' },
  },
);

const bulkDuplicates = Object.assign(new Error('E11000 duplicate key error'), {
  name: 'MongoBulkWriteError',
  code: 11000,
  writeErrors: [
    { index: 1, code: 11000, keyPattern: { _id: 1 } },
    { index: 3, code: 11000, keyPattern: { _id: 1 } },
  ],
});

describe('duplicate keys (E11000)', () => {
  it('recognises a single write refused by a unique index, in each of its codes', () => {
    expect(isDuplicateKey(duplicate)).toBe(true);
    expect(isDuplicateKey(serverError(11001, 'E11001 duplicate key on update'))).toBe(true);
    expect(isDuplicateKey(serverError(12582, 'E12582 duplicate key insert for unique index of capped collection'))).toBe(true);
  });

  it('recognises a bulk write whose every failure is a duplicate, and tells which documents were skipped', () => {
    expect(isDuplicateKey(bulkDuplicates)).toBe(true);
    expect(duplicateIndexes(bulkDuplicates)).toEqual([1, 3]);
  });

  it('does not take a bulk write with another failure among the duplicates for a duplicate', () => {
    const mixed = {
      name: 'MongoBulkWriteError',
      writeErrors: [
        { index: 0, code: 11000 },
        { index: 1, code: 121 },
      ],
    };
    expect(isDuplicateKey(mixed)).toBe(false);
    expect(isDuplicateKey(serverError(121, 'Document failed validation'))).toBe(false);
    expect(isDuplicateKey(new Error('connection closed'))).toBe(false);
    expect(isDuplicateKey(undefined)).toBe(false);
  });

  it('names the fields of the unique index that refused the write', () => {
    expect(duplicateKeyFields(duplicate)).toEqual(['environmentId', 'identifier']);
    expect(duplicateKeyFields(bulkDuplicates)).toEqual(['_id']);
    expect(duplicateKeyFields(new Error('other'))).toEqual([]);
  });
});

describe('storeError', () => {
  it('turns an unexpected duplicate key into a StoreRejectedError without the key values it quotes', () => {
    const error = storeError(duplicate, 'tenants.update');
    expect(error).toBeInstanceOf(StoreRejectedError);
    expect((error as StoreRejectedError).code).toBe('11000');
    expect(error.message).toMatch(/^tenants\.update: E11000 duplicate key error/);
    expect(error.message).not.toContain('acme');
  });

  it('refuses data the server cannot hold: validation, documents over 16 MB, field names, BSON the driver cannot write', () => {
    for (const code of [2, 52, 56, 57, 121, 10334, 17419]) expect(storeError(serverError(code, 'refused'), 'op')).toBeInstanceOf(StoreRejectedError);
    const bson = Object.assign(new Error('Document is larger than the maximum size 16777216'), { name: 'BSONError' });
    expect(storeError(bson, 'messages.insertIfAbsent')).toMatchObject({ name: 'StoreRejectedError', code: 'BSONError' });
  });

  it('keeps another failure a plain error with its code, so a retry may help', () => {
    const conflict = storeError(serverError(112, 'WriteConflict'), 'jobs.transition');
    expect(conflict).not.toBeInstanceOf(StoreRejectedError);
    expect(conflict).not.toBeInstanceOf(StoreUnavailableError);
    expect(conflict).toMatchObject({ message: 'jobs.transition: WriteConflict', code: 112 });
    expect(storeError(new Error('something else'), 'x').message).toBe('x: something else');
  });

  it('answers a server that cannot be reached, or is shutting down or stepping down, as the store being unavailable', () => {
    for (const code of [91, 189, 10107, 11600, 11602]) {
      const error = storeError(serverError(code, 'not now'), 'jobs.transition');
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as StoreUnavailableError).detail).toBe('jobs.transition: not now');
    }
    for (const name of ['MongoNetworkError', 'MongoServerSelectionError', 'MongoNotConnectedError', 'MongoPoolClearedError']) {
      expect(storeError(Object.assign(new Error('gone'), { name }), 'op')).toMatchObject({ code: 'store_unavailable' });
    }
  });

  it('leaves a StoreRejectedError as it is', () => {
    const refused = new StoreRejectedError('mongo store: the NUL character (U+0000) cannot be stored', 'nul_character');
    expect(storeError(refused, 'op')).toBe(refused);
    const unavailable = new StoreUnavailableError('gone');
    expect(storeError(unavailable, 'op')).toBe(unavailable);
  });
});

describe('refuseUnstorable', () => {
  it('refuses the NUL character in any string or key, however deep', () => {
    expect(() => refuseUnstorable('a\u0000b')).toThrow(StoreRejectedError);
    expect(() => refuseUnstorable({ data: { note: ['x', 'a\u0000'] } })).toThrow(StoreRejectedError);
    expect(() => refuseUnstorable({ ['k\u0000']: 1 })).toThrow(StoreRejectedError);
  });

  it('lets everything else through, dates, cycles and functions included', () => {
    const cyclic: Record<string, unknown> = { at: new Date(), text: 'ok', n: 1, nothing: null, lone: '\ud800', id: () => 'x' };
    cyclic.self = cyclic;
    expect(() => refuseUnstorable([cyclic, undefined])).not.toThrow();
  });
});

describe('guardedRepository', () => {
  class Repository {
    calls = 0;
    async insert(value: unknown) {
      this.calls++;
      return this.helper(value);
    }
    async helper(value: unknown) {
      if (value === 'dup') throw duplicate;
      return true;
    }
    get kind() {
      return 'property';
    }
  }

  it('refuses unstorable arguments before the method runs, and maps what the driver throws', async () => {
    const inner = new Repository();
    const guarded = guardedRepository('tenants', inner);
    await expect(guarded.insert({ name: 'a\u0000' })).rejects.toBeInstanceOf(StoreRejectedError);
    expect(inner.calls).toBe(0);
    await expect(guarded.insert('dup')).rejects.toMatchObject({ name: 'StoreRejectedError', message: expect.stringMatching(/^tenants\.insert: /) });
    await expect(guarded.insert('fine')).resolves.toBe(true);
    expect(guarded.kind).toBe('property');
  });
});
