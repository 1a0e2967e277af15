import { mongo } from 'mongoose';
import { Doc } from './mongo-documents';
import { insertManyUnlessDuplicate, insertUnlessDuplicate, upsertOne } from './mongo-writes';

const duplicateOn = (keyPattern: Record<string, number>) => Object.assign(new Error('E11000 duplicate key error'), { code: 11000, keyPattern });

describe('insertUnlessDuplicate (insert-if-absent)', () => {
  it('answers true when the insert wrote, false when a unique index already holds the key', async () => {
    expect(await insertUnlessDuplicate(async () => undefined)).toBe(true);
    expect(await insertUnlessDuplicate(() => Promise.reject(duplicateOn({ environmentId: 1, identifier: 1 })))).toBe(false);
  });

  it('with a field, counts only a clash on an index over that field as "exists"; an id clash stays a refusal', async () => {
    expect(await insertUnlessDuplicate(() => Promise.reject(duplicateOn({ environmentId: 1, identifier: 1 })), 'identifier')).toBe(false);
    await expect(insertUnlessDuplicate(() => Promise.reject(duplicateOn({ _id: 1 })), 'identifier')).rejects.toMatchObject({ code: 11000 });
  });

  it('lets any other failure through', async () => {
    await expect(insertUnlessDuplicate(() => Promise.reject(new Error('network')))).rejects.toThrow('network');
  });
});

describe('insertManyUnlessDuplicate', () => {
  const docs = [{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }];

  it('inserts unordered and answers the ids written, leaving out those a unique index refused', async () => {
    const insertMany = jest.fn().mockRejectedValue({ name: 'MongoBulkWriteError', code: 11000, writeErrors: [{ index: 1, code: 11000 }] });
    expect(await insertManyUnlessDuplicate({ insertMany }, docs)).toEqual(new Set(['a', 'c']));
    expect(insertMany).toHaveBeenCalledWith(docs, { ordered: false });
    expect(await insertManyUnlessDuplicate({ insertMany: jest.fn().mockResolvedValue({}) }, docs)).toEqual(new Set(['a', 'b', 'c']));
  });

  it('writes nothing for no documents, and lets a failure other than duplicates through', async () => {
    const insertMany = jest.fn();
    expect(await insertManyUnlessDuplicate({ insertMany }, [])).toEqual(new Set());
    expect(insertMany).not.toHaveBeenCalled();
    const mixed = {
      writeErrors: [
        { index: 0, code: 11000 },
        { index: 1, code: 2 },
      ],
    };
    await expect(insertManyUnlessDuplicate({ insertMany: jest.fn().mockRejectedValue(mixed) }, docs)).rejects.toBe(mixed);
  });
});

describe('upsertOne', () => {
  const collection = (findOneAndUpdate: jest.Mock) => ({ findOneAndUpdate }) as unknown as mongo.Collection<Doc>;

  it('answers the document and whether this call inserted it', async () => {
    const inserted = jest.fn().mockResolvedValue({ value: { _id: 'x' }, lastErrorObject: { updatedExisting: false, upserted: 'x' } });
    expect(await upsertOne(collection(inserted), { key: 'k' }, { $set: { a: 1 } })).toEqual({ doc: { _id: 'x' }, created: true });
    expect(inserted).toHaveBeenCalledWith({ key: 'k' }, { $set: { a: 1 } }, { upsert: true, returnDocument: 'after', includeResultMetadata: true });
    const updated = jest.fn().mockResolvedValue({ value: { _id: 'x' }, lastErrorObject: { updatedExisting: true } });
    expect(await upsertOne(collection(updated), {}, {})).toEqual({ doc: { _id: 'x' }, created: false });
  });

  it('retries once when a concurrent upsert inserted first (its insert hit the unique index)', async () => {
    const raced = jest
      .fn()
      .mockRejectedValueOnce(duplicateOn({ key: 1 }))
      .mockResolvedValueOnce({ value: { _id: 'winner' }, lastErrorObject: { updatedExisting: true } });
    expect(await upsertOne(collection(raced), {}, {})).toEqual({ doc: { _id: 'winner' }, created: false });
    const stuck = jest.fn().mockRejectedValue(duplicateOn({ key: 1 }));
    await expect(upsertOne(collection(stuck), {}, {})).rejects.toMatchObject({ code: 11000 });
    expect(stuck).toHaveBeenCalledTimes(2);
  });
});
