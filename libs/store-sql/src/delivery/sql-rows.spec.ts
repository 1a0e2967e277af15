import { ColumnSpec, insertFromJson, isoTime, jsonRows } from './sql-rows';
import { sql as statement } from '../sql-statement';
import { migratedPgliteDir } from '../../../../test/support/pglite-template';
import { createSqlClient } from '../sql-client';

describe('isoTime', () => {
  it('writes a time as JSON.stringify would, absent values left out and invalid ones null', () => {
    const times = [new Date('2024-06-01T12:34:56.789Z'), new Date('2024-06-01T12:34:56.789Z'), new Date(0), new Date('2024-06-01T12:34:56.789Z')];
    for (const time of times) expect(isoTime(time)).toBe(JSON.parse(JSON.stringify(time)));
    expect(isoTime(new Date('not a date'))).toBeNull();
    expect(isoTime(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    expect(isoTime(undefined)).toBeUndefined();
  });

  it('never answers one instant with the text of another that shares its slot', () => {
    const base = Date.UTC(2024, 5, 1);
    const instants = [0, 64, 128, 1, 65, 0, -64, 64 * 1024, 0].map((offset) => new Date(base + offset));
    for (let round = 0; round < 2; round++) for (const time of instants) expect(isoTime(time)).toBe(time.toISOString());
    expect(isoTime(new Date(-1))).toBe('1969-12-31T23:59:59.999Z'); // before 1970: a negative slot index would be wrong
  });
});

describe('jsonRows and insertFromJsonSql', () => {
  const columns: ColumnSpec[] = [
    ['id', 'text'],
    ['doc', 'jsonb'],
    ['flag', 'boolean'],
    ['count', 'integer'],
    ['at', 'timestamptz'],
    ['note', 'text'],
  ];

  it('writes each row as an array in column order, a value left out as null and the nulls that end a row not at all', () => {
    expect(jsonRows([{ note: 'n', id: 'a', extra: 1 }, { id: 'b', doc: { x: null }, at: null }, { flag: false }, {}], columns)).toBe(
      '[["a",null,null,null,null,"n"],["b",{"x":null}],[null,null,false],[]]',
    );
  });

  it('reads the rows back as written, a JSON null as NULL in every column (PGlite)', async () => {
    const sql = await createSqlClient({ dataDir: await migratedPgliteDir() });
    try {
      await sql.exec('CREATE TABLE t (id text PRIMARY KEY, doc jsonb, flag boolean, count integer, at timestamptz, note text)');
      const at = new Date('2024-06-01T12:34:56.789Z');
      const rows = [
        { id: 'full', doc: { nested: [1, 'two', null], quote: 'say "hi" \\ ✓' }, flag: false, count: 7, at: isoTime(at), note: 'é "quoted"\n' },
        { id: 'empty' },
        { id: 'zeroes', doc: [], flag: true, count: 0, note: '' },
        { id: 'leading', note: 'only the last column' },
      ];
      await sql.query(insertFromJson('t', columns, jsonRows([...rows, { id: 'skipped' }], columns), statement`r.id <> ${'skipped'}`));
      const read = await sql.query('SELECT id, doc, flag, count, at, note FROM t ORDER BY id');
      expect(read).toEqual([
        { id: 'empty', doc: null, flag: null, count: null, at: null, note: null },
        { id: 'full', doc: rows[0].doc, flag: false, count: 7, at, note: 'é "quoted"\n' },
        { id: 'leading', doc: null, flag: null, count: null, at: null, note: 'only the last column' },
        { id: 'zeroes', doc: [], flag: true, count: 0, at: null, note: '' },
      ]);
    } finally {
      await sql.close();
    }
  });
});
