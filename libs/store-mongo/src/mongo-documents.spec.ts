import { DocumentMapper, definedFields, updateOf } from './mongo-documents';

interface Sample {
  id: string;
  name: string;
  note?: string;
  data?: Record<string, unknown>;
  list: string[];
  at: Date;
}

const mapper = new DocumentMapper<Sample>({ fields: ['name', 'note', 'data', 'list', 'at'], json: ['data'], defaults: { list: () => [] } });
const at = new Date('2025-01-01T00:00:00.000Z');

describe('DocumentMapper', () => {
  it('keys the document by the id, encodes caller JSON, keeps dates as dates', () => {
    const doc = mapper.toDocument({ id: 'a1', name: 'n', note: 'x', data: { 'k.k': 1, b: 2 }, list: ['l'], at });
    expect(doc).toEqual({ _id: 'a1', name: 'n', note: 'x', data: { b: 2, 'k%2Ek': 1 }, list: ['l'], at });
    expect(Object.keys(doc.data)).toEqual(['b', 'k%2Ek']);
  });

  it('leaves optional fields out of the document, never null, and reads them back absent', () => {
    const doc = mapper.toDocument({ id: 'a1', name: 'n', note: undefined, list: [], at });
    expect(doc).toEqual({ _id: 'a1', name: 'n', list: [], at });
    expect(mapper.toDomain({ ...doc, note: null, data: null })).toEqual({ id: 'a1', name: 'n', list: [], at });
  });

  it('writes only the listed fields, whatever else the record carries', () => {
    const record = { id: 'a1', name: 'n', list: [], at, extra: 'not a column' } as Sample;
    expect(mapper.toDocument(record)).not.toHaveProperty('extra');
  });

  it('reads a missing required field as its default, and ignores fields it does not list', () => {
    expect(mapper.toDomain({ _id: 'a1', name: 'n', at, internal: true })).toEqual({ id: 'a1', name: 'n', list: [], at });
  });

  it('gives a record without an id no `_id`, and reads a generated ObjectId-like `_id` back as no id', () => {
    const plain = new DocumentMapper<{ name: string }>({ fields: ['name'] });
    expect(plain.toDocument({ name: 'n' })).toEqual({ name: 'n' });
    expect(plain.toDomain({ _id: { generated: true } as unknown as string, name: 'n' })).toEqual({ name: 'n' });
  });

  it('encodes a single field as stored, for updates', () => {
    expect(mapper.field('data', { 'a.b': 1 })).toEqual({ 'a%2Eb': 1 });
    expect(mapper.field('note', null)).toBeUndefined();
    expect(mapper.field('name', 'n')).toBe('n');
  });
});

describe('update documents', () => {
  it('drop empty operators (the server refuses them) and undefined fields', () => {
    expect(updateOf({ $set: { a: 1 }, $unset: {}, $setOnInsert: undefined })).toEqual({ $set: { a: 1 } });
    expect(definedFields({ a: 1, b: undefined, c: null })).toEqual({ a: 1, c: null });
  });
});
