import { HealthProbe } from '@app/kernel';
import { SqlClient } from './sql-client';

/** The store answers a trivial statement. */
export class SqlHealthProbe implements HealthProbe {
  readonly name = 'store';

  constructor(private readonly sql: SqlClient) {}

  async ping(): Promise<void> {
    await this.sql.query('SELECT 1');
  }
}
