import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Pool, QueryConfig, types } from 'pg';
import { StoreRejectedError, StoreUnavailableError } from '@app/kernel';
import { DataDirLock } from './data-dir-lock';
import { Statement } from './sql-statement';

// int8 (COUNT(*), bigserial) as JS numbers, never strings; our counts stay far below 2^53.
types.setTypeParser(20, (value) => Number(value));

/** The one thing repositories need from a SQL database; PostgreSQL and PGlite both provide it. */
export interface SqlClient {
  readonly dialect: 'postgres' | 'pglite';
  /** A statement built with `sql` carries its values; a text takes them as `params`. */
  query<T = Record<string, any>>(sql: Query, params?: unknown[]): Promise<T[]>;
  /**
   * query for a hot statement of fixed text: PostgreSQL parses and plans it once per connection
   * instead of at every call (a fifth of the batched delivery insert's time). Only for inserts of the
   * rows their parameters carry: a statement that finds rows of a table may keep a plan made while the
   * table was small (one that reads every row of an index) as it grows. And only with fixed result
   * columns (never `SELECT *`: a column added by a migration would fail a plan cached before it).
   */
  queryPrepared<T = Record<string, any>>(sql: Query, params?: unknown[]): Promise<T[]>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `work` on one connection (session-level locks need that). */
  session<T>(work: (client: SqlClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
export const SQL_CLIENT = Symbol('SqlClient');

/** A statement built with `sql`, or a text with its values apart. */
type Query = string | Statement;

/** The text and values of a statement. */
function textAndValues(statement: Query, params: unknown[] = []): [string, any[]] {
  return typeof statement === 'string' ? [statement, params] : [statement.text, statement.values as any[]];
}

/**
 * A `text[]` parameter as Postgres' array literal, built with two joins: pg converts an array
 * element by element, and the worker's batched lookups pass hundreds of ids per statement.
 */
export function textArray(values: readonly string[]): string {
  if (values.length === 0) return '{}';
  const quoted = /["\\]/.test(values.join('')) ? values.map((value) => value.replace(/["\\]/g, '\\$&')) : values;
  return `{"${quoted.join('","')}"}`;
}

export interface SqlClientOptions {
  /** postgres://… ; when absent an embedded PGlite is used. */
  url?: string;
  /** PGlite data directory, locked to this process until close(); absent means in memory. */
  dataDir?: string;
  /** PostgreSQL schema to work in (tests isolate themselves this way). */
  schema?: string;
  poolSize?: number;
}

// SQLSTATE classes of data the store refuses (22 data exception, 23 constraint, 54 program limit
// such as an index row too large): the same statement will fail again.
const REJECTED_CLASSES = new Set(['22', '23', '54']);

// The server is not there for now: class 08 (connection exception), 53300 (too many connections),
// 57P01–57P03 and 57P05 (terminated by an administrator, a crash, the server starting or stopping,
// an idle-session timeout). The same statement may succeed once it is back.
const UNAVAILABLE_CODES = new Set(['53300', '57P01', '57P02', '57P03', '57P05']);
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
// pg's own words when a connection ends or cannot be had, which carry no code.
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended/i;

/** True when `error` says the database could not be reached, rather than that it refused the statement. */
export function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code))) return true;
  return UNAVAILABLE_MESSAGES.test((error as Error)?.message ?? '');
}

/**
 * A driver error as the rest of the service sees it: the statement it came from (its first words,
 * never its parameters), the message and the SQLSTATE code, and nothing else — PGlite and pg attach
 * the query, its parameters and row details, which could be anyone's credentials, and logs print
 * what an error carries. Refused data becomes a StoreRejectedError (no retry will help), a database
 * that cannot be reached a StoreUnavailableError (the API answers 503, the queues wait for it).
 */
export function storeError(error: unknown, sql: string): Error {
  const code = (error as { code?: unknown })?.code;
  const statement = sql.trim().split(/\s+/).slice(0, 3).join(' ');
  // PostgreSQL quotes the offending value at the end of some messages (`invalid input syntax for type json: "…"`).
  const driverMessage = ((error as Error)?.message ?? String(error)).replace(/:\s*"[\s\S]*"\s*$/, '');
  const message = `${statement}: ${driverMessage}`;
  if (isConnectionFailure(error)) return new StoreUnavailableError(message);
  if (typeof code === 'string' && REJECTED_CLASSES.has(code.slice(0, 2)) && /^[0-9A-Z]{5}$/.test(code)) return new StoreRejectedError(message, code);
  return Object.assign(new Error(message), typeof code === 'string' ? { code } : {});
}

async function guarded<T>(sql: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw storeError(error, sql);
  }
}

/** Named statements a process prepares at most: the hot statements are a handful of constants; past this, statements go unnamed. */
const MAX_PREPARED_STATEMENTS = 64;
const preparedNames = new Map<string, string>();

/** pg's named-statement form of `sql`: the same text always gets the same name, so each connection prepares it once. */
function preparedQuery(statement: Query, params?: unknown[]): QueryConfig {
  const [sql, values] = textAndValues(statement, params);
  let name = preparedNames.get(sql);
  if (name === undefined && preparedNames.size < MAX_PREPARED_STATEMENTS) {
    name = `s${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    preparedNames.set(sql, name);
  }
  return { name, text: sql, values };
}

class PostgresClient implements SqlClient {
  readonly dialect = 'postgres' as const;
  constructor(private readonly pool: Pool) {}
  async query<T>(statement: Query, params?: unknown[]): Promise<T[]> {
    const [sql, values] = textAndValues(statement, params);
    return guarded(sql, async () => (await this.pool.query(sql, values)).rows as T[]);
  }
  async queryPrepared<T>(statement: Query, params?: unknown[]): Promise<T[]> {
    const query = preparedQuery(statement, params);
    return guarded(query.text, async () => (await this.pool.query(query)).rows as T[]);
  }
  async exec(sql: string): Promise<void> {
    await guarded(sql, () => this.pool.query(sql));
  }
  async session<T>(work: (client: SqlClient) => Promise<T>): Promise<T> {
    const connection = await guarded('connect', () => this.pool.connect());
    const single: SqlClient = {
      dialect: 'postgres',
      query: <R>(statement: Query, params?: unknown[]) => {
        const [sql, values] = textAndValues(statement, params);
        return guarded(sql, async () => (await connection.query(sql, values)).rows as R[]);
      },
      queryPrepared: <R>(statement: Query, params?: unknown[]) => {
        const query = preparedQuery(statement, params);
        return guarded(query.text, async () => (await connection.query(query)).rows as R[]);
      },
      exec: (sql: string) => guarded(sql, async () => void (await connection.query(sql))),
      session: (inner) => inner(single),
      close: async () => undefined,
    };
    try {
      return await work(single);
    } finally {
      connection.release();
    }
  }
  async close(): Promise<void> {
    await this.pool.end();
  }
}

class PgliteClient implements SqlClient {
  readonly dialect = 'pglite' as const;
  constructor(
    private readonly db: PGlite,
    private readonly lock?: DataDirLock,
  ) {}
  async query<T>(statement: Query, params?: unknown[]): Promise<T[]> {
    const [sql, values] = textAndValues(statement, params);
    return guarded(sql, async () => (await this.db.query<T>(sql, values)).rows);
  }
  queryPrepared<T>(statement: Query, params?: unknown[]): Promise<T[]> {
    return this.query(statement, params); // PGlite's query has no named statements
  }
  async exec(sql: string): Promise<void> {
    await guarded(sql, () => this.db.exec(sql));
  }
  session<T>(work: (client: SqlClient) => Promise<T>): Promise<T> {
    return work(this); // one connection already
  }
  async close(): Promise<void> {
    try {
      if (!this.db.closed) await this.db.close();
    } finally {
      this.lock?.release();
    }
  }
}

/**
 * Trigram indexes serve the subscriber searches (substring matches); see migration 20. PGlite's
 * PostgreSQL keeps its shared memory inside this process, all of it resident: PostgreSQL's default of
 * 128 MB of shared buffers would be held by the embedded process whatever its store's size. With 16 MB,
 * the pages that do not fit are read from the file system's cache, at no measurable cost to deliveries
 * (docs/performance-log.md).
 */
const PGLITE_OPTIONS = { extensions: { pg_trgm }, startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] };

/** How long a statement waits for a connection (a new one, or a free one of the pool) before it fails. */
const CONNECTION_TIMEOUT_MS = 5_000;

/**
 * An idle connection that ends (the server restarted or stopped, a proxy's idle timeout,
 * pg_terminate_backend) is the pool's `error` event, which would end the process if nobody listened:
 * the pool drops the connection by itself, so one line per outage is all there is to do. The next
 * statement opens a new connection, or fails as StoreUnavailableError while the server is away.
 */
function logIdleConnectionErrors(pool: Pool): void {
  const logger = new Logger('Store');
  let quietUntil = 0;
  pool.on('error', (error) => {
    if (Date.now() < quietUntil) return;
    quietUntil = Date.now() + 60_000;
    logger.warn(`An idle database connection ended (${error.message}); it is dropped and the next statement opens another`);
  });
}

export async function createSqlClient(options: SqlClientOptions): Promise<SqlClient> {
  if (options.url) {
    const pool = new Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      options: options.schema ? `-c search_path=${options.schema}` : undefined,
      connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
      // A server that vanished without closing the socket (a crashed host, a partition) is found out.
      keepAlive: true,
    });
    logIdleConnectionErrors(pool);
    if (options.schema) {
      const bootstrap = new Pool({ connectionString: options.url, max: 1 });
      await bootstrap.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
      await bootstrap.end();
    }
    return new PostgresClient(pool);
  }
  if (!options.dataDir) {
    const db = new PGlite(PGLITE_OPTIONS);
    await db.waitReady;
    return new PgliteClient(db);
  }
  // Two processes on one PGlite directory lose each other's writes: the second is refused before it reads anything.
  const lock = DataDirLock.acquire(options.dataDir);
  try {
    const db = new PGlite(options.dataDir, PGLITE_OPTIONS);
    await db.waitReady;
    return new PgliteClient(db, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}
