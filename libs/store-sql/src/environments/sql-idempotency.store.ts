import { Inject, Injectable } from '@nestjs/common';
import { IdempotencyRecord, IdempotencyStore, StoredResponse } from '@app/kernel';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { sql } from '../sql-statement';
import { IdempotencyKeyRow } from '../tables';

/** Idempotency keys in the store, for deployments without Redis. */
@Injectable()
export class SqlIdempotencyStore implements IdempotencyStore {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async claim(key: string, bodyHash: string, ttlSeconds: number): Promise<IdempotencyRecord | null> {
    // An expired row is taken over in the same statement, so a claim is one atomic write.
    const claimed = await this.sql.query(
      sql`INSERT INTO idempotency_keys (key, body_hash, expires_at) VALUES (${key}, ${bodyHash}, now() + make_interval(secs => ${ttlSeconds}))
          ON CONFLICT (key) DO UPDATE SET body_hash = EXCLUDED.body_hash, status_code = NULL, body = NULL, expires_at = EXCLUDED.expires_at
          WHERE idempotency_keys.expires_at < now()
          RETURNING key`,
    );
    if (claimed.length === 1) return null;
    const [row] = await this.sql.query<IdempotencyKeyRow>(sql`SELECT * FROM idempotency_keys WHERE key = ${key}`);
    if (!row) return this.claim(key, bodyHash, ttlSeconds);
    return row.status_code === null
      ? { state: 'in_progress', bodyHash: row.body_hash }
      : { state: 'done', bodyHash: row.body_hash, response: { statusCode: row.status_code, body: row.body } };
  }

  async complete(key: string, bodyHash: string, response: StoredResponse, ttlSeconds: number): Promise<void> {
    await this.sql.query(
      sql`UPDATE idempotency_keys SET status_code = ${response.statusCode}, body = ${JSON.stringify(response.body ?? null)}::jsonb,
            expires_at = now() + make_interval(secs => ${ttlSeconds})
          WHERE key = ${key} AND body_hash = ${bodyHash}`,
    );
  }

  async release(key: string): Promise<void> {
    await this.sql.query(sql`DELETE FROM idempotency_keys WHERE key = ${key} AND status_code IS NULL`);
  }
}
