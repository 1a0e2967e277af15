import { createHash } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { INTEGRATION_REPOSITORY, Integration, IntegrationRepository, addressLimitsOf, deliveryLimitsOf } from '@app/integrations';
import { Channel, DeferredJobError, EnvironmentScope } from '@app/kernel';
import { DETAIL, ExecutionDetailStatus } from '../../../domain/execution-detail';
import { standbyAllowed, standbyIntegrations } from '../../../domain/select-integration';
import { ProviderError, isProviderError } from '../../../ports/channel-provider.port';
import { VENDOR_PACE, VendorPace } from '../../../ports/vendor-pace.port';

/** A 429 that names no wait: try again after this long. */
const DEFAULT_PUSHBACK_MS = 1_000;

/** An execution detail the pacing asks its caller to record. */
export type PacingNote = (status: ExecutionDetailStatus, detail: string, raw: Record<string, unknown>) => void | Promise<void>;

/** Why an integration is held whatever its own limits. */
export type HeldReason = 'pushback' | 'circuit_open';

/**
 * The integration is held (the vendor's pushback, an open circuit): the job waits `retryAfterMs`
 * unless the delivery can move on to another integration.
 */
export class VendorHeldError extends DeferredJobError {
  constructor(
    readonly integration: Integration,
    readonly reason: HeldReason,
    waitMs: number,
  ) {
    super(
      reason === 'circuit_open'
        ? `The circuit of integration ${integration.identifier} is open after provider failures in a row`
        : `Provider ${integration.providerId} asked integration ${integration.identifier} to slow down`,
      waitMs,
    );
    this.name = 'VendorHeldError';
  }
}

/** The integration's circuit is open. */
export class CircuitOpenError extends VendorHeldError {
  constructor(integration: Integration, waitMs: number) {
    super(integration, 'circuit_open', waitMs);
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
  constructor(
    @Inject(VENDOR_PACE) private readonly pace: VendorPace,
    @Optional() @Inject(INTEGRATION_REPOSITORY) private readonly integrations?: IntegrationRepository,
  ) {}

  /** Whether the integration is held for now (pushback, open circuit): a delivery with somewhere else to go moves on. */
  async held(integration: Integration): Promise<HeldReason | undefined> {
    return (await this.pace.held(integration.id))?.reason;
  }

  /** The integrations a delivery held on its whole chain may go to instead (standbyIntegrations), read when needed. */
  async standby(scope: EnvironmentScope, channel: Channel, chain: Integration[], overrides: Record<string, unknown>): Promise<Integration[]> {
    if (!this.integrations || !standbyAllowed(chain, channel, overrides)) return [];
    return standbyIntegrations(chain, await this.integrations.findActive(scope, { channel }), channel, overrides);
  }

  /**
   * `address`: where the call delivers (a webhook URL, a channel); a provider whose vendor limits each
   * address (addressLimitsOf: Slack) is paced per address too, and its pushback pauses that address only.
   */
  async call<T>(integration: Integration, send: () => Promise<T>, note: PacingNote, address?: string): Promise<T> {
    const slot = await this.pace.acquire(integration.id, deliveryLimitsOf(integration));
    if (!slot.granted) {
      if (slot.reason === 'circuit_open') throw new CircuitOpenError(integration, slot.waitMs);
      if (slot.reason === 'pushback') throw new VendorHeldError(integration, slot.reason, slot.waitMs);
      throw new DeferredJobError(`Integration ${integration.identifier} is over its ${slot.reason.replace('_', ' ')}: the job waits its turn`, slot.waitMs);
    }
    const addressLimits = address === undefined ? undefined : addressLimitsOf(integration.providerId);
    // Hashed: a webhook URL is a credential, and keys show in Redis.
    const addressKey = addressLimits && `${integration.id}:address:${createHash('sha256').update(address!).digest('hex').slice(0, 32)}`;
    const addressSlot = addressKey ? await this.pace.acquire(addressKey, addressLimits) : undefined;
    if (addressSlot && !addressSlot.granted) {
      await slot.release();
      throw new DeferredJobError(
        `Provider ${integration.providerId} paces this address (${addressSlot.reason.replace('_', ' ')}): the job waits its turn`,
        addressSlot.waitMs,
      );
    }
    try {
      const result = await send();
      await this.pace.succeeded(integration.id, slot.probe);
      return result;
    } catch (thrown) {
      const error = isProviderError(thrown) ? thrown : undefined;
      if (error?.kind === 'rate_limited') await this.pushedBack(integration, error, note, addressKey);
      if (!error || error.kind === 'retryable') await this.failed(integration, slot.probe, note);
      throw thrown;
    } finally {
      await Promise.all([slot.release(), addressSlot?.granted && addressSlot.release()]);
    }
  }

  private async pushedBack(integration: Integration, error: ProviderError, note: PacingNote, addressKey: string | undefined): Promise<never> {
    const waitMs = error.retryAfterMs ?? DEFAULT_PUSHBACK_MS;
    await this.pace.pushBack(addressKey ?? integration.id, waitMs);
    await note('Warning', DETAIL.VENDOR_PUSHBACK, {
      status: error.status,
      code: error.providerCode,
      retryAfterMs: waitMs,
      integration: integration.identifier,
      ...(addressKey ? { scope: 'address' } : {}),
    });
    // An address's pushback holds that address only: the delivery waits for it rather than moving on.
    if (addressKey) throw new DeferredJobError(`Provider ${integration.providerId} asked to slow down for this address`, waitMs);
    throw new VendorHeldError(integration, 'pushback', waitMs);
  }

  private async failed(integration: Integration, probe: boolean, note: PacingNote): Promise<void> {
    if (await this.pace.failed(integration.id, probe)) await note('Warning', DETAIL.CIRCUIT_OPENED, { integration: integration.identifier, probe });
  }
}
