import { ProviderError, SendResult } from '@app/delivery';
import { CallBatcher } from '@app/kernel';

/** One message's outcome within a vendor batch: its own result or its own failure. */
export type SendOutcome = { result: SendResult } | { error: ProviderError };

/**
 * The sends concurrent deliveries make within a turn of the event loop, grouped by a key that says
 * which sends one vendor request can carry (CallBatcher), at most `maxBatch` a request. `runBatch`
 * answers one outcome per send, in order; when it throws for a batch of several, each send goes
 * again alone (the vendor refused the batch for one bad message), so throw only where that helps.
 */
export class VendorBatches<S> {
  private readonly batcher: CallBatcher<S, SendOutcome>;

  constructor(runBatch: (sends: S[]) => Promise<SendOutcome[]>, maxBatch: number) {
    this.batcher = new CallBatcher<S, SendOutcome>((_, sends) => runBatch(sends), maxBatch);
  }

  async send(group: string, send: S): Promise<SendResult> {
    const outcome = await this.batcher.run(group, send);
    if ('error' in outcome) throw outcome.error;
    return outcome.result;
  }
}

/** A batch request's signal: aborted when any of its messages' is (a single send keeps its own). */
export function batchSignal(sends: { signal: AbortSignal }[]): AbortSignal {
  return sends.length === 1 ? sends[0].signal : AbortSignal.any(sends.map((send) => send.signal));
}

/** The same failure for every message of a request (a refused key, a 429, a network error). */
export function everyMessageFails(count: number, error: unknown): SendOutcome[] {
  return Array.from({ length: count }, () => ({ error: error as ProviderError }));
}
