import { randomBytes } from 'node:crypto';

// What the test files share about their surroundings, apart from test-app.ts: importing that loads the whole service.

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
export const TEST_ENCRYPTION_KEY = 'a'.repeat(64);

/** A MongoDB replica set the e2e suites also run on when set; none runs where this project's tests run. */
export const TEST_MONGODB_URL = process.env.MONGODB_URL;

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}
