import { fromStoredJson, toStoredJson } from './mongo-json';

/** A document as the driver hands it over or takes it: field names to BSON values. */
export type Doc = { _id?: string; [field: string]: any };

export interface DocumentSpec<T> {
  /** Every field of the record the document keeps, `id` excepted (it is the `_id`). */
  fields: readonly (keyof T & string)[];
  /** Those holding caller-shaped JSON (stored through mongo-json's codec). */
  json?: readonly (keyof T & string)[];
  /** Values a document written without them reads back as (a required field with a neutral value). */
  defaults?: { [K in keyof T]?: () => T[K] };
}

const present = (value: unknown) => value !== null && value !== undefined;

/**
 * Record ↔ document for one collection: `id` is the `_id`, listed fields only (anything else on the
 * record stays out, as the SQL adapters write their columns only), caller JSON through the codec,
 * and optional fields absent — never null — both ways, as the SQL adapters read NULL columns back.
 */
export class DocumentMapper<T extends object> {
  private readonly json: ReadonlySet<string>;

  constructor(private readonly spec: DocumentSpec<T>) {
    this.json = new Set(spec.json ?? []);
  }

  /** One field's value as stored (undefined when absent), for updates that set single fields. */
  field<K extends keyof T & string>(field: K, value: T[K] | null | undefined): unknown {
    if (!present(value)) return undefined;
    return this.json.has(field) ? toStoredJson(value) : value;
  }

  toDocument(record: T): Doc {
    const doc: Doc = {};
    const id = (record as { id?: string }).id;
    if (id !== undefined) doc._id = id;
    for (const field of this.spec.fields) {
      const value = this.field(field, record[field]);
      if (value !== undefined) doc[field] = value;
    }
    return doc;
  }

  toDomain(doc: Doc): T {
    const record: Record<string, unknown> = {};
    if (doc._id !== undefined && typeof doc._id === 'string') record.id = doc._id;
    for (const field of this.spec.fields) {
      const value = doc[field];
      if (present(value)) record[field] = this.json.has(field) ? fromStoredJson(value) : value;
      else if (this.spec.defaults?.[field]) record[field] = this.spec.defaults[field]();
    }
    return record as T;
  }
}

/** An update document from its operators, leaving out the empty ones (the server refuses `$set: {}`). */
export function updateOf(operators: Record<string, Doc | undefined>): Doc {
  const update: Doc = {};
  for (const [operator, fields] of Object.entries(operators)) {
    if (fields && Object.keys(fields).length > 0) update[operator] = fields;
  }
  return update;
}

/** The fields of `record` whose value is not undefined. */
export function definedFields(record: Doc): Doc {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
