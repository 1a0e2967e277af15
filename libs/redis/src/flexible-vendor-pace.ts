import type Redis from 'ioredis';
import { BurstyRateLimiter, RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { Semaphore } from 'redis-semaphore';
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
/** A process adds its calls to the shared count of the integration's calls a second at most this often (one write, not one a call). */
const SEEN_FLUSH_MS = 100;

/**
 * VendorPace on rate-limiter-flexible's counters: RateLimiterRedis (shared by every worker) when
 * given a Redis connection, RateLimiterMemory (the embedded process) otherwise, the same rules for both.
 * - rate: a fixed window of one second holding `perSecond` calls, and a `burst` of more over ten
 *   seconds (BurstyRateLimiter). A call over it waits for its turn: the count of calls already over
 *   the window says how many seconds ahead it is, so a backlog is spread over the coming windows
 *   rather than retried all at once.
 * - in flight: a lease per call taken before it and given back after it (redis-semaphore in Redis, a count
 *   in the process), at most `maxConcurrency` at once; a crashed worker's leases lapse after a minute.
 * - pushback: a 429 blocks the integration's key for the wait the vendor asked (whole seconds), and
 *   sets a learned rate for a minute: nine tenths of the calls every worker made through it in the last
 *   second (each adds its count to a shared one per second, every 100 ms), stored where the pause is
 *   (another 429 meanwhile takes four fifths of the learned rate), paced as a rateLimit is, so the
 *   calls that waited do not all come back at once.
 * - circuit: failures in a row counted per integration; at the threshold the circuit key is blocked
 *   for the open time, then one probe call at a time goes through until one succeeds.
 * The circuit keeps its state in these counters rather than in a breaker library (opossum and its
 * kin hold it in the process): every worker must see one integration's circuit open at once.
 */
export class FlexibleVendorPace implements VendorPace {
  private readonly rates = new Map<string, CallCounter>();
  /** Calls in flight per integration in this process (the embedded mode's maxConcurrency). */
  private readonly calling = new Map<string, number>();
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
  /** Calls per integration and second, every worker's (Redis): what a pushback's learned rate is a share of. */
  private readonly seen: RateLimiterAbstract;
  /** This process's calls not yet added to `seen`, by `integration:second`. */
  private readonly unseen = new Map<string, number>();
  private seeing?: NodeJS.Timeout;

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
    // Two seconds: the count of the second before is still there through the current one.
    this.seen = this.limiter('seen', Number.MAX_SAFE_INTEGER, 2);
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
      const slot = await this.callSlot(integrationId, limits.maxConcurrency);
      if (!slot) return abandon({ granted: false, reason: 'concurrency', waitMs: CONCURRENCY_RETRY_MS + Math.random() * CONCURRENCY_RETRY_MS });
      giveBack.push(slot);
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
    await this.addSeen();
    const second = Math.floor(Date.now() / 1000);
    const [learned, now, before] = await Promise.all([
      this.learned.get(integrationId),
      this.seen.get(`${integrationId}:${second}`),
      this.seen.get(`${integrationId}:${second - 1}`),
    ]);
    const made = Math.max(1, now?.consumedPoints ?? 0, before?.consumedPoints ?? 0);
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

  /** One more call this process made through the integration, added to every worker's count within SEEN_FLUSH_MS. */
  private counted(integrationId: string): void {
    const key = `${integrationId}:${Math.floor(Date.now() / 1000)}`;
    this.unseen.set(key, (this.unseen.get(key) ?? 0) + 1);
    this.seeing ??= setTimeout(() => void this.addSeen(), SEEN_FLUSH_MS).unref();
  }

  /** Adds this process's calls to the shared counts; one lost (the store failing) only makes a learned rate lower. */
  private async addSeen(): Promise<void> {
    clearTimeout(this.seeing);
    this.seeing = undefined;
    const counts = [...this.unseen];
    this.unseen.clear();
    await Promise.all(counts.map(([key, calls]) => this.seen.penalty(key, calls).catch(() => undefined)));
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

  /**
   * A slot among the integration's `max` calls in flight, and how to give it back; none when all are taken.
   * Redis: a lease of its own per call (redis-semaphore: a sorted set of call ids, taken and counted in one
   * script), so a count never turns over under calls still in flight and a crashed worker's leases lapse
   * after CALL_LEASE_SECONDS. The process: a count of its own calls, exact as it is.
   */
  private async callSlot(integrationId: string, max: number): Promise<(() => Promise<void>) | undefined> {
    if (!this.redis) {
      const calling = this.calling.get(integrationId) ?? 0;
      if (calling >= max) return undefined;
      this.calling.set(integrationId, calling + 1);
      return async () => {
        const left = (this.calling.get(integrationId) ?? 1) - 1;
        if (left > 0) this.calling.set(integrationId, left);
        else this.calling.delete(integrationId);
      };
    }
    const lease = new Semaphore(this.redis, `${this.options.prefix ?? ''}vendor:inflight:${integrationId}`, max, {
      lockTimeout: CALL_LEASE_SECONDS * 1000,
      // One try, no wait: a refused call is deferred, not held here. No refresh: a call ends within its timeout, well inside the lease.
      acquireAttemptsLimit: 1,
      retryInterval: 0,
      refreshInterval: 0,
    });
    return (await lease.tryAcquire()) ? () => lease.release() : undefined;
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
