import { Inject, Injectable } from '@nestjs/common';
import { Integration, deliveryLimitsOf } from '@app/integrations';
import { DeferredJobError } from '@app/kernel';
import { DETAIL, ExecutionDetailStatus } from '../../../domain/execution-detail';
import { ProviderError, isProviderError } from '../../../ports/channel-provider.port';
import { VENDOR_PACE, VendorPace } from '../../../ports/vendor-pace.port';

/** A 429 that names no wait: try again after this long. */
const DEFAULT_PUSHBACK_MS = 1_000;

/** An execution detail the pacing asks its caller to record. */
export type PacingNote = (status: ExecutionDetailStatus, detail: string, raw: Record<string, unknown>) => void | Promise<void>;

/** The integration's circuit is open: the job waits `retryAfterMs` unless the delivery can move on to another integration. */
export class CircuitOpenError extends DeferredJobError {
  constructor(
    readonly integration: Integration,
    waitMs: number,
  ) {
    super(`The circuit of integration ${integration.identifier} is open after provider failures in a row`, waitMs);
    this.name = 'CircuitOpenError';
  }
}

/**
 * Runs one vendor call at the integration's pace (VendorPace): a call over its rate or concurrency
 * limit, or during the vendor's pushback, is not made, and the job is deferred (DeferredJobError:
 * no attempt spent, no worker slot held) until its turn; a 429 pauses the integration for every
 * worker and defers the job to the time the vendor named; failures in a row open the integration's
 * circuit (CircuitOpenError), a successful probe closes it.
 */
@Injectable()
export class VendorPacing {
  constructor(@Inject(VENDOR_PACE) private readonly pace: VendorPace) {}

  async call<T>(integration: Integration, send: () => Promise<T>, note: PacingNote): Promise<T> {
    const slot = await this.pace.acquire(integration.id, deliveryLimitsOf(integration));
    if (!slot.granted) {
      if (slot.reason === 'circuit_open') throw new CircuitOpenError(integration, slot.waitMs);
      throw new DeferredJobError(`Integration ${integration.identifier} is over its ${slot.reason.replace('_', ' ')}: the job waits its turn`, slot.waitMs);
    }
    try {
      const result = await send();
      await this.pace.succeeded(integration.id, slot.probe);
      return result;
    } catch (thrown) {
      const error = isProviderError(thrown) ? thrown : undefined;
      if (error?.kind === 'rate_limited') await this.pushedBack(integration, error, note);
      if (!error || error.kind === 'retryable') await this.failed(integration, slot.probe, note);
      throw thrown;
    } finally {
      await slot.release();
    }
  }

  private async pushedBack(integration: Integration, error: ProviderError, note: PacingNote): Promise<never> {
    const waitMs = error.retryAfterMs ?? DEFAULT_PUSHBACK_MS;
    await this.pace.pushBack(integration.id, waitMs);
    await note('Warning', DETAIL.VENDOR_PUSHBACK, {
      status: error.status,
      code: error.providerCode,
      retryAfterMs: waitMs,
      integration: integration.identifier,
    });
    throw new DeferredJobError(`Provider ${integration.providerId} asked to slow down`, waitMs);
  }

  private async failed(integration: Integration, probe: boolean, note: PacingNote): Promise<void> {
    if (await this.pace.failed(integration.id, probe)) await note('Warning', DETAIL.CIRCUIT_OPENED, { integration: integration.identifier, probe });
  }
}
