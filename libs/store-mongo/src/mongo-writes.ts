import { mongo } from 'mongoose';
import type { Doc } from './mongo-documents';
import { duplicateIndexes, duplicateKeyFields, isDuplicateKey } from './mongo-errors';

/**
 * Runs an insert and answers whether it wrote: false when a unique index already holds its key
 * (SQL's ON CONFLICT DO NOTHING). With `field`, only a clash on an index over that field counts as
 * "exists already"; any other clash (an id taken) stays a refusal, as in SQL.
 */
export async function insertUnlessDuplicate(insert: () => Promise<unknown>, field?: string): Promise<boolean> {
  try {
    await insert();
    return true;
  } catch (error) {
    if (isDuplicateKey(error) && (field === undefined || duplicateKeyFields(error).includes(field))) return false;
    throw error;
  }
}

/**
 * Inserts the documents, skipping those a unique index refuses (SQL's multi-row ON CONFLICT DO
 * NOTHING); answers the `_id`s written. Unordered: one refusal does not stop the others.
 */
export async function insertManyUnlessDuplicate(
  collection: { insertMany(docs: any[], options: { ordered: false }): Promise<unknown> },
  docs: { _id: string }[],
): Promise<Set<string>> {
  if (docs.length === 0) return new Set();
  try {
    await collection.insertMany(docs, { ordered: false });
    return new Set(docs.map((doc) => doc._id));
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    const skipped = new Set(duplicateIndexes(error));
    return new Set(docs.filter((_, index) => !skipped.has(index)).map((doc) => doc._id));
  }
}

/**
 * An upsert (findOneAndUpdate with upsert) answering the document after it and whether this call
 * inserted it. Two upserts inserting at once: the loser's insert hits the unique index, and its
 * second try updates the winner's document.
 */
export async function upsertOne(
  collection: mongo.Collection<Doc>,
  filter: mongo.Filter<Doc>,
  update: mongo.UpdateFilter<Doc>,
): Promise<{ doc: mongo.WithId<Doc>; created: boolean }> {
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await collection.findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after', includeResultMetadata: true });
      return { doc: result.value!, created: result.lastErrorObject?.updatedExisting !== true };
    } catch (error) {
      if (!isDuplicateKey(error) || attempt > 0) throw error;
    }
  }
}
