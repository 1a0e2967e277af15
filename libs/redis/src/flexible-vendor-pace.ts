import type Redis from 'ioredis';
import { BurstyRateLimiter, RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { VendorLimits, VendorPace, VendorSlot } from '@app/delivery';

export interface VendorPaceOptions {
  /** Failures in a row that open an integration's circuit. */
  circuitFailures: number;
  /** How long an open circuit refuses calls before it lets one probe through. */
  circuitOpenMs: number;
  /** Key prefix (Redis): deployments sharing a Redis keep apart by it. */
  prefix?: string;
}

/** The window a burst is counted in (the integrations context's BURST_WINDOW_SECONDS). */
const BURST_WINDOW_SECONDS = 10;
/** A call's hold on a concurrency slot, longer than any vendor call (15 s timeout): a crashed worker's slot comes back after it. */
const CALL_LEASE_SECONDS = 60;
/** A circuit that tripped stays half-open (one probe at a time) until a probe succeeds, or this long. */
const TRIPPED_SECONDS = 3600;
/** No slot free: ask again after about this long (nothing says when a call in flight ends). */
const CONCURRENCY_RETRY_MS = 250;
/**
 * An integration found neither paused nor tripped is taken as such for this long without asking the
 * store again: another worker's pushback or open circuit reaches this one that much later, and the
 * calls of an integration without limits cost no round trip.
 */
const CLEAR_FOR_MS = 100;
/** A rate learned from the vendor's pushback holds this long, then the integration tries its full pace again. */
const LEARNED_SECONDS = 60;

/**
 * VendorPace on rate-limiter-flexible's counters: RateLimiterRedis (shared by every worker) when
 * given a Redis connection, RateLimiterMemory (the embedded process) otherwise, the same rules for both.
 * - rate: a fixed window of one second holding `perSecond` calls, and a `burst` of more over ten
 *   seconds (BurstyRateLimiter). A call over it waits for its turn: the count of calls already over
 *   the window says how many seconds ahead it is, so a backlog is spread over the coming windows
 *   rather than retried all at once.
 * - in flight: a counter taken before the call and given back after it, in a window of a minute (so a
 *   crashed worker's slots come back); when a window turns, calls of the old one still in flight are not
 *   counted in the new one, so for that moment up to twice `maxConcurrency` may be in flight.
 * - pushback: a 429 blocks the integration's key for the wait the vendor asked (whole seconds), and
 *   sets a learned rate for a minute: nine tenths of the calls this process made in the last second
 *   (another 429 meanwhile takes four fifths of the learned rate), paced as a rateLimit is, so the
 *   calls that waited do not all come back at once. Several workers each count their own calls: the
 *   learned rate is then lower than the vendor's, for that minute.
 * - circuit: failures in a row counted per integration; at the threshold the circuit key is blocked
 *   for the open time, then one probe call at a time goes through until one succeeds.
 * The circuit keeps its state in these counters rather than in a breaker library (opossum and its
 * kin hold it in the process): every worker must see one integration's circuit open at once.
 */
export class FlexibleVendorPace implements VendorPace {
  private readonly rates = new Map<string, CallCounter>();
  private readonly inFlight = new Map<number, RateLimiterAbstract>();
  private readonly paused: RateLimiterAbstract;
  private readonly failures: RateLimiterAbstract;
  private readonly open: RateLimiterAbstract;
  private readonly tripped: RateLimiterAbstract;
  private readonly probes: RateLimiterAbstract;
  /** Integrations this process saw fail since their last success: only their successes reset the count. */
  private readonly failing = new Set<string>();
  private readonly learned: RateLimiterAbstract;
  /** Integrations last found neither paused nor tripped, until when that holds here, and the rate learned from their pushback. */
  private readonly clearUntil = new Map<string, { until: number; learned?: number }>();
  /** Calls this process made per integration in the current second and the one before. */
  private readonly recentCalls = new Map<string, { second: number; count: number; previous: number }>();

  constructor(
    private readonly redis: Redis | undefined,
    private readonly options: VendorPaceOptions,
  ) {
    const openSeconds = Math.max(1, Math.ceil(options.circuitOpenMs / 1000));
    this.paused = this.limiter('paused', 1, 1);
    this.failures = this.limiter('failures', options.circuitFailures, openSeconds * 4);
    this.open = this.limiter('open', 1, openSeconds);
    this.tripped = this.limiter('tripped', 1, TRIPPED_SECONDS);
    this.probes = this.limiter('probe', 1, CALL_LEASE_SECONDS);
    this.learned = this.limiter('learned', 1, LEARNED_SECONDS);
  }

  async held(integrationId: string): Promise<{ reason: 'pushback' | 'circuit_open'; waitMs: number } | undefined> {
    const state = await this.state(integrationId);
    if (state.paused) return { reason: 'pushback', waitMs: state.paused.msBeforeNext };
    if (!state.tripped) return undefined;
    const [open, probing] = await Promise.all([this.open.get(integrationId), this.probes.get(integrationId)]);
    if (open && open.msBeforeNext > 0) return { reason: 'circuit_open', waitMs: open.msBeforeNext };
    // Half-open: while one probe is in flight the others would only wait for its outcome.
    if (probing && probing.consumedPoints >= 1 && probing.msBeforeNext > 0) return { reason: 'circuit_open', waitMs: Math.min(probing.msBeforeNext, 1_000) };
    return undefined;
  }

  async acquire(integrationId: string, limits: VendorLimits): Promise<VendorSlot> {
    const held = await this.state(integrationId);
    // Spread over a second: the calls held back do not all come back at the same moment.
    if (held.paused) return { granted: false, reason: 'pushback', waitMs: held.paused.msBeforeNext + Math.random() * 1_000 };
    let probe = false;
    if (held.tripped) {
      const open = await this.open.get(integrationId);
      if (open && open.msBeforeNext > 0) return { granted: false, reason: 'circuit_open', waitMs: open.msBeforeNext };
      const probing = await taken(this.probes.consume(integrationId));
      if (!probing.ok) return { granted: false, reason: 'circuit_open', waitMs: Math.min(probing.res.msBeforeNext, 1_000) };
      probe = true;
    }

    const giveBack: (() => Promise<unknown>)[] = probe ? [() => this.probes.delete(integrationId)] : [];
    const abandon = async (slot: VendorSlot) => {
      await Promise.all(giveBack.map((release) => release()));
      return slot;
    };
    if (limits.maxConcurrency) {
      const slots = this.inFlightLimiter(limits.maxConcurrency);
      const taking = await taken(slots.consume(integrationId));
      if (!taking.ok) {
        await slots.reward(integrationId);
        return abandon({ granted: false, reason: 'concurrency', waitMs: CONCURRENCY_RETRY_MS + Math.random() * CONCURRENCY_RETRY_MS });
      }
      giveBack.push(() => slots.reward(integrationId));
    }
    const perSecond = Math.min(limits.rateLimit?.perSecond ?? Infinity, held.learned ?? Infinity);
    if (Number.isFinite(perSecond)) {
      const burst = perSecond === limits.rateLimit?.perSecond ? (limits.rateLimit.burst ?? 0) : 0;
      const counted = await taken(this.rateLimiter(perSecond, burst).consume(integrationId));
      if (!counted.ok) {
        // The calls already over this window queue up behind it: this one's turn is that many windows on.
        const ahead = Math.max(0, counted.res.consumedPoints - perSecond - 1);
        const waitMs = counted.res.msBeforeNext + Math.floor(ahead / perSecond) * 1000 + Math.random() * (1000 / perSecond);
        return abandon({ granted: false, reason: 'rate_limit', waitMs });
      }
    }
    this.counted(integrationId);
    let released = false;
    return {
      granted: true,
      probe,
      release: async () => {
        if (released) return;
        released = true;
        // The probe's key stays until the probe's outcome is known (succeeded/failed clear or reopen it).
        await Promise.all(giveBack.slice(probe ? 1 : 0).map((release) => release()));
      },
    };
  }

  async pushBack(integrationId: string, waitMs: number): Promise<void> {
    this.clearUntil.delete(integrationId);
    const learned = await this.learned.get(integrationId);
    const calls = this.recentCalls.get(integrationId);
    const made = calls ? Math.max(calls.count, calls.previous) : 1;
    const perSecond = Math.max(1, Math.floor(learned ? learned.consumedPoints * 0.8 : made * 0.9));
    await Promise.all([this.paused.block(integrationId, Math.max(1, Math.ceil(waitMs / 1000))), this.learned.set(integrationId, perSecond, LEARNED_SECONDS)]);
  }

  async failed(integrationId: string, probe: boolean): Promise<boolean> {
    this.failing.add(integrationId);
    const { res } = await taken(this.failures.consume(integrationId));
    if (!probe && res.consumedPoints < this.options.circuitFailures) return false;
    this.clearUntil.delete(integrationId);
    const openSeconds = Math.max(1, Math.ceil(this.options.circuitOpenMs / 1000));
    await Promise.all([
      this.open.block(integrationId, openSeconds),
      this.tripped.block(integrationId, TRIPPED_SECONDS),
      this.failures.delete(integrationId),
      this.probes.delete(integrationId),
    ]);
    return true;
  }

  async succeeded(integrationId: string, probe: boolean): Promise<void> {
    if (probe) {
      this.failing.delete(integrationId);
      await Promise.all([this.tripped.delete(integrationId), this.probes.delete(integrationId), this.failures.delete(integrationId)]);
      return;
    }
    if (!this.failing.delete(integrationId)) return;
    await this.failures.delete(integrationId);
  }

  /** Whether the vendor paused the integration, and whether its circuit tripped (open or half-open). */
  private async state(integrationId: string): Promise<{ paused?: RateLimiterRes; tripped?: RateLimiterRes; learned?: number }> {
    const clear = this.clearUntil.get(integrationId);
    if (clear && clear.until > Date.now()) return clear.learned ? { learned: clear.learned } : {};
    const [paused, tripped, learnedRes] = await Promise.all([this.paused.get(integrationId), this.tripped.get(integrationId), this.learned.get(integrationId)]);
    const learned = learnedRes && learnedRes.msBeforeNext > 0 ? learnedRes.consumedPoints : undefined;
    const held = { ...(paused && paused.msBeforeNext > 0 ? { paused } : {}), ...(tripped ? { tripped } : {}), ...(learned ? { learned } : {}) };
    if (held.paused || held.tripped) this.clearUntil.delete(integrationId);
    else this.clearUntil.set(integrationId, { until: Date.now() + CLEAR_FOR_MS, ...(learned ? { learned } : {}) });
    return held;
  }

  /** One more call this process made through the integration. */
  private counted(integrationId: string): void {
    const second = Math.floor(Date.now() / 1000);
    const calls = this.recentCalls.get(integrationId);
    if (!calls || calls.second < second - 1) this.recentCalls.set(integrationId, { second, count: 1, previous: 0 });
    else if (calls.second === second - 1) this.recentCalls.set(integrationId, { second, count: 1, previous: calls.count });
    else calls.count++;
  }

  private rateLimiter(perSecond: number, burst: number): CallCounter {
    const key = `${perSecond}:${burst}`;
    let limiter = this.rates.get(key);
    if (!limiter) {
      const steady = this.limiter(`rate:${perSecond}`, perSecond, 1);
      limiter = burst ? new BurstyRateLimiter(steady, this.limiter(`burst:${burst}`, burst, BURST_WINDOW_SECONDS)) : steady;
      this.rates.set(key, limiter);
    }
    return limiter;
  }

  private inFlightLimiter(max: number): RateLimiterAbstract {
    let limiter = this.inFlight.get(max);
    if (!limiter) this.inFlight.set(max, (limiter = this.limiter(`inflight:${max}`, max, CALL_LEASE_SECONDS)));
    return limiter;
  }

  private limiter(name: string, points: number, duration: number): RateLimiterAbstract {
    const options = { keyPrefix: `${this.options.prefix ?? ''}vendor:${name}`, points, duration };
    return this.redis ? new RateLimiterRedis({ ...options, storeClient: this.redis }) : new RateLimiterMemory(options);
  }
}

type CallCounter = Pick<RateLimiterAbstract, 'consume'>;

/** A consume's outcome: rate-limiter-flexible rejects with a RateLimiterRes when over, with an Error when the store failed. */
async function taken(consuming: Promise<RateLimiterRes>): Promise<{ ok: boolean; res: RateLimiterRes }> {
  try {
    return { ok: true, res: await consuming };
  } catch (error) {
    if (error instanceof RateLimiterRes) return { ok: false, res: error };
    throw error;
  }
}
