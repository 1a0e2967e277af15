/** Helpers of the suites that drive `@novu/api` (test/compat/novu-sdk*.compat.test.ts), whose zod schemas validate every response. */
import { NovuError, ResponseValidationError } from '@novu/api/models/errors';

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const NOVU_API_VERSION: string = require('@novu/api/package.json').version;

/** Awaits an SDK call; SDK validation and HTTP errors become failures that say exactly what broke. */
export async function sdk<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ResponseValidationError) {
      throw new Error(`${what}: @novu/api rejected the response —\n${error.pretty()}\nraw body: ${error.body}`);
    }
    if (error instanceof NovuError) throw new Error(`${what}: HTTP ${error.statusCode} ${error.body}`);
    throw error;
  }
}

/** Expects an SDK call to fail with this HTTP status, and its error body to pass the SDK's error schema. */
export async function sdkFails(what: string, status: number, call: () => Promise<unknown>): Promise<NovuError> {
  try {
    await call();
  } catch (error) {
    if (error instanceof ResponseValidationError) {
      throw new Error(`${what}: @novu/api rejected the error body —\n${error.pretty()}\nraw body: ${error.body}`);
    }
    if (error instanceof NovuError) {
      expect({ what, status: error.statusCode }).toEqual({ what, status });
      return error;
    }
    throw error;
  }
  throw new Error(`${what}: expected HTTP ${status}, but the call succeeded`);
}
