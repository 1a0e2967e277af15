import { ProviderError, SendContext } from '@app/delivery';
import { createProviderRuntime, ProviderRuntime } from '@app/providers';
import { TEST_CA } from './vendor-fake';

/** The runtime adapters get in the service, with loopback allowed (the fakes listen there) and the test CA trusted. */
export function testRuntime(timeoutMs = 5_000): ProviderRuntime {
  return createProviderRuntime({ allowPrivateNetworkTargets: true, timeoutMs, extraCa: TEST_CA });
}

export function sendContext(idempotencyKey = 'msg-1', extra: Partial<SendContext> = {}): SendContext {
  return { idempotencyKey, signal: AbortSignal.timeout(5_000), ...extra };
}

/** The ProviderError a call rejects with (fails the test when it resolves or throws anything else). */
export async function providerFailure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected a ProviderError');
}
