import { StoreRejectedError, StoreUnavailableError } from '@app/kernel';
import { migratedPgliteDir } from '../../../test/support/pglite-template';
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
    const other = storeError(Object.assign(new Error('deadlock detected'), { code: '40P01' }), 'UPDATE jobs SET');
    expect(other).not.toBeInstanceOf(StoreRejectedError);
    expect(other).not.toBeInstanceOf(StoreUnavailableError);
    expect(other).toMatchObject({ code: '40P01' });
  });

  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a fast shutdown', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a server starting up', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['a lost connection (class 08)', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['a socket that ended', new Error('Connection terminated unexpectedly')],
    ['no connection in time', new Error('timeout exceeded when trying to connect')],
  ])('%s is the store being unavailable, not a refusal', (_, driverError) => {
    const error = storeError(driverError, 'SELECT 1');
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error).toMatchObject({ code: 'store_unavailable', retryAfterSeconds: expect.any(Number) });
    expect((error as StoreUnavailableError).detail).toContain('SELECT 1');
    expect(error.message).not.toContain('SELECT');
  });

  it('a real PGlite error: the value PostgreSQL quotes in its message is cut, the code kept', async () => {
    const client = await createSqlClient({ dataDir: await migratedPgliteDir() });
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
