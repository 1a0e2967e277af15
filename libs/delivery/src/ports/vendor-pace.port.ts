/** The limits delivery keeps to for one integration's vendor calls (its own, else its provider's defaults). */
export interface VendorLimits {
  rateLimit?: { perSecond: number; burst?: number };
  maxConcurrency?: number;
}

/** Why a vendor call has to wait. */
export type VendorWaitReason = 'rate_limit' | 'concurrency' | 'pushback' | 'circuit_open';

export type VendorSlot =
  /** Call the vendor now; `release` when the call is over (answered or not). `probe`: the call that may close an open circuit. */
  { granted: true; probe: boolean; release(): Promise<void> } | { granted: false; reason: VendorWaitReason; waitMs: number };

/**
 * The pace of vendor calls per integration, shared by every worker process (Redis in production
 * mode, the process in the embedded mode): calls per second, calls in flight, the vendor's own
 * pushback (429), and a circuit that opens after failures in a row and closes after a probe succeeds.
 */
export interface VendorPace {
  /**
   * Whether the integration is held for a while whatever its limits: paused by the vendor's pushback,
   * or its circuit open (or half-open with its probe in flight). A delivery that can go elsewhere does.
   */
  held(integrationId: string): Promise<{ reason: 'pushback' | 'circuit_open'; waitMs: number } | undefined>;
  /** One call through the integration: a slot now, or how long to wait for one. */
  acquire(integrationId: string, limits: VendorLimits): Promise<VendorSlot>;
  /** The vendor asked to slow down: no call through the integration, from any worker, for `waitMs`. */
  pushBack(integrationId: string, waitMs: number): Promise<void>;
  /** A call failed in a way more calls may also fail (5xx, no answer): true when this opened the circuit (a failed probe opens it again). */
  failed(integrationId: string, probe: boolean): Promise<boolean>;
  /** A call succeeded: failures in a row start again from zero, and a probe closes the circuit. */
  succeeded(integrationId: string, probe: boolean): Promise<void>;
}
export const VENDOR_PACE = Symbol('VendorPace');
