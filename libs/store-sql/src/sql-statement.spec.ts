import { empty, join, param, raw, sql } from './sql-statement';
import { assignments, boolean, defaulted, insertInto, jsonb, nullable, table, text, textList } from './sql-table';

describe('sql', () => {
  it('numbers the values in the order the text reads them, through nested pieces', () => {
    const where = join([sql`a = ${1}`, sql`b = ANY(${['x']}::text[])`, raw('c IS NULL')], ' AND ');
    const statement = sql`SELECT * FROM t WHERE ${where} AND d = ${'d'} LIMIT ${10}${empty}`;
    expect(statement.text).toBe('SELECT * FROM t WHERE a = $1 AND b = ANY($2::text[]) AND c IS NULL AND d = $3 LIMIT $4');
    expect(statement.values).toEqual([1, ['x'], 'd', 10]);
  });

  it('gives a value used twice two parameters', () => {
    const at = new Date(0);
    expect(sql`VALUES (${at}, ${at})`.text).toBe('VALUES ($1, $2)');
  });

  it('binds named parameters at each call, one placeholder per name however often it appears', () => {
    const statement = sql`SELECT ${param('rows')}, ${1}, ${param('rows')}, ${param('ids')}`;
    expect(statement.text).toBe('SELECT $1, $2, $1, $3');
    expect(statement.bind({ rows: 'r', ids: ['i'] })).toEqual({ text: 'SELECT $1, $2, $1, $3', values: ['r', 1, ['i']] });
    expect(statement.bind({ rows: 's', ids: [] }).values).toEqual(['s', 1, []]);
    expect(() => statement.bind({ rows: 'r' })).toThrow(/ids/);
  });

  it('joins nothing to nothing', () => {
    expect(sql`x${join([])}y`.text).toBe('xy');
  });
});

describe('insertInto and assignments', () => {
  const things = table('things', {
    id: text,
    doc: nullable(jsonb<Record<string, unknown>>()),
    tags: textList,
    flag: defaulted(boolean),
  });

  it('writes the columns the rows give, jsonb as JSON text (null as SQL NULL) and a missing value as DEFAULT', () => {
    const statement = insertInto(things, [
      { id: 'a', doc: { n: 1 }, tags: ['x'], flag: true },
      { id: 'b', doc: null, tags: [] },
    ]);
    expect(statement.text).toBe('INSERT INTO things (id, doc, tags, flag) VALUES ($1, $2::jsonb, $3::text[], $4), ($5, $6::jsonb, $7::text[], DEFAULT)');
    expect(statement.values).toEqual(['a', '{"n":1}', ['x'], true, 'b', null, []]);
  });

  it('sets the columns a change gives, leaving out undefined', () => {
    const statement = assignments(things, { doc: { n: 2 }, flag: undefined, id: 'z' });
    expect(statement.text).toBe('id = $1, doc = $2::jsonb');
    expect(statement.values).toEqual(['z', '{"n":2}']);
  });
});
