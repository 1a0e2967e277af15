import {
  EnvironmentValue,
  EnvironmentVariable,
  EnvironmentVariableChanges,
  EnvironmentVariableRepository,
  EnvironmentVariableUpdateResult,
} from '@app/environments';
import { CredentialCipher } from '@app/integrations';
import { containsIgnoringCase } from '../mongo-cursor-page';
import { Doc, DocumentMapper, updateOf } from '../mongo-documents';
import { isDuplicateKey } from '../mongo-errors';
import { insertUnlessDuplicate } from '../mongo-writes';
import { COLLECTIONS, MongoStore } from '../mongo-store';

export const environmentVariableDocuments = new DocumentMapper<EnvironmentVariable>({
  fields: ['organizationId', 'key', 'type', 'isSecret', 'values', 'createdAt', 'updatedAt'],
  defaults: { values: () => ({}) },
});

/** Each value encrypted; environment ids (24 hex characters) are safe field names. */
export const sealedValues = (values: Record<string, string>, cipher: CredentialCipher): Record<string, string> =>
  Object.fromEntries(Object.entries(values).map(([environmentId, value]) => [environmentId, cipher.encrypt(value)]));

/** A change as update operators: given fields set, each given value set under its environment (the others kept), updatedAt moved. */
export function environmentVariableChange(changes: EnvironmentVariableChanges, updatedAt: Date, cipher: CredentialCipher): Doc {
  const $set: Doc = { updatedAt };
  for (const field of ['key', 'type', 'isSecret'] as const) if (changes[field] !== undefined) $set[field] = changes[field];
  for (const [environmentId, value] of Object.entries(sealedValues(changes.values ?? {}, cipher))) $set[`values.${environmentId}`] = value;
  return updateOf({ $set });
}

/** EnvironmentVariableRepository on MongoDB: one document per (organization, key), each environment's value encrypted under `values.<environmentId>`. */
export class MongoEnvironmentVariableRepository implements EnvironmentVariableRepository {
  constructor(
    private readonly store: MongoStore,
    private readonly cipher: CredentialCipher,
  ) {}

  private get variables() {
    return this.store.collection(COLLECTIONS.environmentVariables);
  }

  insert(variable: EnvironmentVariable): Promise<boolean> {
    const doc = environmentVariableDocuments.toDocument({ ...variable, values: sealedValues(variable.values, this.cipher) });
    return insertUnlessDuplicate(() => this.variables.insertOne(doc), 'key');
  }

  async findByKey(organizationId: string, key: string): Promise<EnvironmentVariable | null> {
    const doc = await this.variables.findOne({ organizationId, key });
    return doc ? this.toDomain(doc) : null;
  }

  async list(organizationId: string, search?: string): Promise<EnvironmentVariable[]> {
    const docs = await this.variables
      .find({ organizationId, ...(search ? { key: containsIgnoringCase(search) } : {}) }, { sort: { createdAt: -1, _id: -1 } })
      .toArray();
    return docs.map((doc) => this.toDomain(doc));
  }

  async update(organizationId: string, key: string, changes: EnvironmentVariableChanges, updatedAt: Date): Promise<EnvironmentVariableUpdateResult> {
    try {
      const doc = await this.variables.findOneAndUpdate({ organizationId, key }, environmentVariableChange(changes, updatedAt, this.cipher), {
        returnDocument: 'after',
      });
      return doc ? { status: 'updated', variable: this.toDomain(doc) } : { status: 'not_found' };
    } catch (error) {
      if (isDuplicateKey(error)) return { status: 'key_taken' };
      throw error;
    }
  }

  async delete(organizationId: string, key: string): Promise<boolean> {
    return (await this.variables.deleteOne({ organizationId, key })).deletedCount === 1;
  }

  async valuesFor(organizationId: string, environmentId: string): Promise<EnvironmentValue[]> {
    const field = `values.${environmentId}`;
    const docs = await this.variables
      .find({ organizationId, [field]: { $exists: true } }, { projection: { key: 1, isSecret: 1, [field]: 1 }, sort: { key: 1 } })
      .toArray();
    return docs.map((doc) => ({ key: doc.key, isSecret: doc.isSecret, value: this.cipher.decrypt(doc.values[environmentId]) }));
  }

  private toDomain(doc: Doc): EnvironmentVariable {
    const variable = environmentVariableDocuments.toDomain(doc);
    const values = Object.entries(variable.values ?? {}).map(([environmentId, value]) => [environmentId, this.cipher.decrypt(value)]);
    return { ...variable, values: Object.fromEntries(values) };
  }
}
