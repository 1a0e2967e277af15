import { StoreRejectedError } from '@app/kernel';
import { createSqlClient, storeError } from './sql-client';

describe('store errors carry the statement and the code, never the values', () => {
  it('drops the parameters and details a driver attaches, and classifies refused data', () => {
    const driver = Object.assign(new Error('index row size 10016 exceeds btree version 4 maximum 2704 for index "subscribers_unique"'), {
      code: '54000',
      query: 'INSERT INTO subscribers (id, channels) VALUES ($1, $2)',
      params: ['x', '[{"webhookUrl":"https://hooks.example.com/SECRET"}]'],
      detail: 'SECRET',
    });
    const error = storeError(driver, 'INSERT INTO subscribers (id, channels) VALUES ($1, $2)');
    expect(error).toBeInstanceOf(StoreRejectedError);
    expect(error.message).toBe('INSERT INTO subscribers: index row size 10016 exceeds btree version 4 maximum 2704 for index "subscribers_unique"');
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain('SECRET');
    const transient = storeError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), 'SELECT 1');
    expect(transient).not.toBeInstanceOf(StoreRejectedError);
    expect(transient).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('a real PGlite error: the value PostgreSQL quotes in its message is cut, the code kept', async () => {
    const client = await createSqlClient({});
    try {
      const failure = await client.query('SELECT $1::jsonb AS v', ['{"apiKey": SECRET-not-json']).catch((error: Error) => error);
      expect(failure).toBeInstanceOf(StoreRejectedError);
      expect((failure as StoreRejectedError).code).toBe('22P02');
      expect((failure as Error).message).toMatch(/^SELECT \$1::jsonb AS: invalid input syntax for type json/);
      expect(JSON.stringify({ ...(failure as object), message: (failure as Error).message })).not.toContain('SECRET');
    } finally {
      await client.close();
    }
  });
});
