import { ColumnSpec } from './delivery/sql-rows';
import { Sql, join, raw, sql } from './sql-statement';

/** Column types as the migrations create them (information_schema's udt names: sql-tables.contract.test). */
export type SqlType = 'text' | 'boolean' | 'integer' | 'bigint' | 'timestamptz' | 'jsonb' | 'text[]';

/**
 * A column: its SQL type, whether it takes NULL, whether it has a default. `T` is its value in a row
 * read back (pg and PGlite parse jsonb, give timestamptz as Date and bigint as number); `Optional`
 * says an insert may leave it out (it takes NULL or has a default).
 */
export interface Column<T, Optional extends boolean = boolean> {
  readonly type: SqlType;
  readonly nullable: boolean;
  readonly defaulted: boolean;
  /** Never set: carries the types. */
  readonly types?: { value: T; optional: Optional };
}

const column = <T>(type: SqlType): Column<T, false> => ({ type, nullable: false, defaulted: false });

export const text = column<string>('text');
/** text holding one of a union of strings. */
export const textOf = <T extends string>(): Column<T, false> => column<T>('text');
export const boolean = column<boolean>('boolean');
export const integer = column<number>('integer');
export const bigint = column<number>('bigint');
export const timestamptz = column<Date>('timestamptz');
export const textList = column<string[]>('text[]');
export const textListOf = <T extends string>(): Column<T[], false> => column<T[]>('text[]');
/** jsonb holding a `T`. */
export const jsonb = <T>(): Column<T, false> => column<T>('jsonb');

export const nullable = <T>(c: Column<T, false>): Column<T | null, true> => ({ type: c.type, nullable: true, defaulted: false });
/** A NOT NULL column with a default, which an insert may leave out. */
export const defaulted = <T>(c: Column<T, false>): Column<T, true> => ({ type: c.type, nullable: false, defaulted: true });

type Columns = Record<string, Column<unknown>>;

export interface Table<C extends Columns = Columns> {
  readonly name: string;
  readonly columns: C;
}

/** One table of the schema: its columns as the migrations leave them, in the order bulk inserts write them. */
export function table<C extends Columns>(name: string, columns: C): Table<C> {
  return { name, columns };
}

type ValueOf<C> = C extends Column<infer T> ? T : never;
type OptionalKeys<C extends Columns> = { [K in keyof C]: C[K] extends Column<unknown, true> ? K : never }[keyof C];

/** A row as a statement reads it (`SELECT *`, `RETURNING *`). */
export type Row<T extends Table> = { [K in keyof T['columns']]: ValueOf<T['columns'][K]> };

/** A row to insert: the columns without NULL or a default are required. */
export type NewRow<T extends Table> = { [K in Exclude<keyof T['columns'], OptionalKeys<T['columns']>>]: ValueOf<T['columns'][K]> } & {
  [K in OptionalKeys<T['columns']>]?: ValueOf<T['columns'][K]>;
};

/** A row as jsonRows writes it (times as ISO text): the table's columns, any of them left out. */
export type JsonRow<T extends Table> = { [K in keyof T['columns']]?: unknown };

/**
 * A value as the parameter of a column of type `type`: jsonb goes as JSON text (null and undefined
 * as SQL NULL, never a JSON null), cast where a parameter's type is not taken from its column.
 */
function value(type: SqlType, v: unknown): Sql {
  if (type === 'jsonb') return sql`${v === null || v === undefined ? null : JSON.stringify(v)}::jsonb`;
  if (type === 'text[]') return sql`${v}::text[]`;
  return sql`${v}`;
}

/** The columns of `rows` that hold a value (undefined leaves a column out), in table order. */
function columnsOf<T extends Table>(table: T, rows: readonly Partial<Row<T>>[]): string[] {
  return Object.keys(table.columns).filter((name) => rows.some((row) => (row as Record<string, unknown>)[name] !== undefined));
}

/**
 * `INSERT INTO table (…) VALUES (…), …`: the columns any row gives a value; a row without one
 * gets the column's DEFAULT (NULL when it has none).
 */
export function insertInto<T extends Table>(table: T, rows: readonly NewRow<T>[]): Sql {
  const given = rows as readonly Record<string, unknown>[];
  const names = columnsOf(table, given as readonly Partial<Row<T>>[]);
  const values = given.map(
    (row) => sql`(${join(names.map((name) => (row[name] === undefined ? raw('DEFAULT') : value(table.columns[name].type, row[name]))))})`,
  );
  return sql`INSERT INTO ${raw(table.name)} (${raw(names.join(', '))}) VALUES ${join(values)}`;
}

/** `column = value, …` of an UPDATE, for the columns `changes` gives a value (undefined leaves one alone). */
export function assignments<T extends Table>(table: T, changes: Partial<Row<T>>): Sql {
  const given = changes as Record<string, unknown>;
  return join(columnsOf(table, [changes]).map((name) => sql`${raw(name)} = ${value(table.columns[name].type, given[name])}`));
}

/** The columns in table order as jsonRows and jsonRowsSource take them. */
export function columnSpecs(table: Table): ColumnSpec[] {
  return Object.entries(table.columns).map(([name, c]) => [name, c.type]);
}
