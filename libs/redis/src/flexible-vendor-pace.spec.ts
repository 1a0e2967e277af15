import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import type { VendorSlot } from '@app/delivery';
import { FlexibleVendorPace, VendorPaceOptions } from './flexible-vendor-pace';

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const circuit = { circuitFailures: 2, circuitOpenMs: 1_000 };
const granted = (slot: VendorSlot) => slot.granted;
const refusal = (slot: VendorSlot) => (slot.granted ? undefined : slot.reason);

// Two paces stand for two worker processes: on Redis they share every count; in memory, the one process is both.
const modes: [string, (options: VendorPaceOptions) => [FlexibleVendorPace, FlexibleVendorPace]][] = [];
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 3 });
const prefix = `test:pace:${randomUUID()}:`;
modes.push(['redis', (options) => [new FlexibleVendorPace(redis, { ...options, prefix }), new FlexibleVendorPace(redis, { ...options, prefix })]]);
modes.push(['memory', (options) => ((pace) => [pace, pace] as [FlexibleVendorPace, FlexibleVendorPace])(new FlexibleVendorPace(undefined, options))]);

afterAll(async () => {
  const keys = [...(await redis.keys(`${prefix}*`)), ...(await redis.keys(`mutex:${prefix}*`))];
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

describe.each(modes)('FlexibleVendorPace (%s)', (_mode, paces) => {
  const integration = () => `integration-${randomUUID()}`;

  it('grants perSecond calls in a window across workers, and gives the calls over it later and later turns', async () => {
    const [one, two] = paces(circuit);
    const id = integration();
    const limits = { rateLimit: { perSecond: 3 } };
    const slots = [await one.acquire(id, limits), await two.acquire(id, limits), await one.acquire(id, limits)];
    expect(slots.every(granted)).toBe(true);
    const over = [await two.acquire(id, limits), await one.acquire(id, limits), await two.acquire(id, limits), await one.acquire(id, limits)];
    expect(over.map(refusal)).toEqual(['rate_limit', 'rate_limit', 'rate_limit', 'rate_limit']);
    const waits = over.map((slot) => (slot.granted ? 0 : slot.waitMs));
    // The fourth call over the window is a whole second behind the first three.
    expect(waits[3] - waits[0]).toBeGreaterThan(500);
    // Another integration is not slowed by it.
    expect((await one.acquire(integration(), limits)).granted).toBe(true);
  });

  it('grants a burst above perSecond, once', async () => {
    const [one, two] = paces(circuit);
    const id = integration();
    const limits = { rateLimit: { perSecond: 1, burst: 2 } };
    const slots = [await one.acquire(id, limits), await two.acquire(id, limits), await one.acquire(id, limits), await two.acquire(id, limits)];
    expect(slots.map(refusal)).toEqual([undefined, undefined, undefined, 'rate_limit']);
  });

  it('holds calls in flight to maxConcurrency across workers; a release frees a slot', async () => {
    const [one, two] = paces(circuit);
    const id = integration();
    const limits = { maxConcurrency: 2 };
    const first = await one.acquire(id, limits);
    const second = await two.acquire(id, limits);
    expect([first, second].every(granted)).toBe(true);
    expect(refusal(await one.acquire(id, limits))).toBe('concurrency');
    if (first.granted) await first.release();
    const third = await two.acquire(id, limits);
    expect(third.granted).toBe(true);
    expect(refusal(await one.acquire(id, limits))).toBe('concurrency');
  });

  it('never has more than maxConcurrency calls in flight when acquisitions race, across workers, round after round', async () => {
    const [one, two] = paces(circuit);
    const id = integration();
    const limits = { maxConcurrency: 3 };
    for (let round = 0; round < 3; round++) {
      const slots = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).acquire(id, limits)));
      expect(slots.filter(granted)).toHaveLength(3);
      expect(slots.filter((slot) => refusal(slot) === 'concurrency')).toHaveLength(17);
      // Given back twice (a release is once): the next round finds exactly three free again, no more.
      await Promise.all(slots.flatMap((slot) => (slot.granted ? [slot.release(), slot.release()] : [])));
    }
  });

  it('the slot of a call refused for its rate is given back at once', async () => {
    const [one, two] = paces(circuit);
    const id = integration();
    const limits = { maxConcurrency: 2, rateLimit: { perSecond: 1 } };
    expect((await one.acquire(id, limits)).granted).toBe(true);
    expect(refusal(await two.acquire(id, limits))).toBe('rate_limit');
    expect(refusal(await two.acquire(id, limits))).toBe('rate_limit');
    // Two refused for the rate: one slot of two still free.
    expect(refusal(await one.acquire(id, { maxConcurrency: 2 }))).toBeUndefined();
  });

  it("a vendor's pushback holds every worker's calls through the integration for the wait it named", async () => {
    const [one, two] = paces(circuit);
    const id = integration();
    await one.pushBack(id, 2_000);
    const held = await two.acquire(id, {});
    expect(refusal(held)).toBe('pushback');
    expect(held.granted ? 0 : held.waitMs).toBeGreaterThan(1_000);
    expect((await two.acquire(integration(), {})).granted).toBe(true);
  });

  it("after a pushback the integration's calls are paced at nine tenths of what went through in the last second, for every worker", async () => {
    const [one, two] = paces(circuit);
    const id = integration();
    for (let i = 0; i < 10; i++) expect((await one.acquire(id, {})).granted).toBe(true);
    await one.pushBack(id, 1_000);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // Learned: 9 a second. Calls over it wait their turn, later and later.
    const slots = [];
    for (let i = 0; i < 12; i++) slots.push(await (i % 2 ? one : two).acquire(id, {}));
    expect(slots.filter(granted).length).toBeLessThanOrEqual(9);
    expect(slots.filter((slot) => refusal(slot) === 'rate_limit').length).toBeGreaterThanOrEqual(3);
  });

  it("learns from a pushback at nine tenths of every worker's calls in the last second, and every worker keeps to it", async () => {
    const [one, two] = paces(circuit);
    const id = integration();
    // Date alone held still, in the middle of a second: the twenty calls are counted in one.
    jest.useFakeTimers({
      doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'queueMicrotask', 'performance', 'hrtime'],
      now: Math.floor(Date.now() / 1000) * 1000 + 500,
    });
    try {
      for (let i = 0; i < 10; i++) expect([(await one.acquire(id, {})).granted, (await two.acquire(id, {})).granted]).toEqual([true, true]);
      await new Promise((resolve) => setTimeout(resolve, 150)); // the other worker's count is added within 100 ms
      await one.pushBack(id, 1);
    } finally {
      jest.useRealTimers();
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // Learned: 18 a second (nine tenths of 20, not of one worker's 10): both workers together keep to it.
    const slots = [];
    for (let i = 0; i < 24; i++) slots.push(await (i % 2 ? one : two).acquire(id, {}));
    expect(slots.filter(granted).length).toBeGreaterThan(9);
    expect(slots.filter(granted).length).toBeLessThanOrEqual(18);
    expect(slots.filter((slot) => refusal(slot) === 'rate_limit').length).toBeGreaterThanOrEqual(6);
  });

  it('opens the circuit after failures in a row, lets one probe through once open time is over, and closes on its success', async () => {
    const [one, two] = paces(circuit);
    const id = integration();
    expect(await one.failed(id, false)).toBe(false);
    expect(await one.failed(id, false)).toBe(true);
    expect(refusal(await two.acquire(id, {}))).toBe('circuit_open');

    await new Promise((resolve) => setTimeout(resolve, circuit.circuitOpenMs + 100));
    const probe = await two.acquire(id, {});
    expect(probe).toMatchObject({ granted: true, probe: true });
    expect(refusal(await one.acquire(id, {}))).toBe('circuit_open');
    // A failed probe opens it again; a successful one closes it.
    expect(await two.failed(id, true)).toBe(true);
    expect(refusal(await one.acquire(id, {}))).toBe('circuit_open');
    await new Promise((resolve) => setTimeout(resolve, circuit.circuitOpenMs + 100));
    const again = await one.acquire(id, {});
    expect(again).toMatchObject({ granted: true, probe: true });
    await one.succeeded(id, true);
    expect(await two.acquire(id, {})).toMatchObject({ granted: true, probe: false });
  });
});

describe('FlexibleVendorPace (redis): call leases', () => {
  afterEach(() => jest.useRealTimers());

  it("a lease is each call's own: one taken 59 s ago still counts, a crashed worker's lapses after a minute", async () => {
    const pace = new FlexibleVendorPace(redis, { ...circuit, prefix });
    const id = `integration-${randomUUID()}`;
    const limits = { maxConcurrency: 2 };
    const start = Date.now();
    // Only the clock the leases are stamped with is moved.
    jest.useFakeTimers({
      doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'queueMicrotask', 'performance', 'hrtime'],
      now: start,
    });
    const crashed = await pace.acquire(id, limits);
    jest.setSystemTime(start + 30_000);
    const running = await pace.acquire(id, limits);
    expect([crashed, running].every(granted)).toBe(true);
    jest.setSystemTime(start + 59_000);
    expect(refusal(await pace.acquire(id, limits))).toBe('concurrency');
    // The crashed call's lease lapsed; the running call's, taken later, still holds its slot.
    jest.setSystemTime(start + 61_000);
    const next = await pace.acquire(id, limits);
    expect(next.granted).toBe(true);
    expect(refusal(await pace.acquire(id, limits))).toBe('concurrency');
    for (const slot of [running, next]) if (slot.granted) await slot.release();
  });
});
