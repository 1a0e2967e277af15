/** Helpers of the suites that drive the real `@novu/node` 2.x SDK (test/compat/novu-node*.compat.test.ts). */

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const NOVU_NODE_VERSION: string = require('@novu/node/package.json').version;

/** The body of a refused SDK call, and its status; fails when the call succeeds. */
export async function refused(what: string, status: number, call: () => Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await call();
  } catch (error) {
    // the SDK's axios error carries the answer
    const response = (error as { response?: { status: number; data: Record<string, unknown> } }).response;
    if (!response) throw error;
    expect({ what, status: response.status }).toEqual({ what, status });
    return response.data;
  }
  throw new Error(`${what}: expected HTTP ${status}, but the call succeeded`);
}
