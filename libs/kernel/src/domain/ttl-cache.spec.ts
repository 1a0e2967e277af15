import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  afterEach(() => jest.useRealTimers());

  it('loads once within the TTL and again after it', async () => {
    jest.useFakeTimers({ now: 0 });
    const cache = new TtlCache<number>(1_000);
    const load = jest.fn().mockResolvedValueOnce(1).mockResolvedValueOnce(2);
    expect(await cache.getOrLoad('k', load)).toBe(1);
    expect(await cache.getOrLoad('k', load)).toBe(1);
    jest.setSystemTime(1_001);
    expect(await cache.getOrLoad('k', load)).toBe(2);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('drops the oldest entry past its size', async () => {
    const cache = new TtlCache<string>(60_000, 2);
    await cache.getOrLoad('a', async () => 'a');
    await cache.getOrLoad('b', async () => 'b');
    await cache.getOrLoad('c', async () => 'c');
    const reload = jest.fn(async () => 'A');
    expect(await cache.getOrLoad('a', reload)).toBe('A');
    expect(await cache.getOrLoad('c', reload)).toBe('c');
  });

  it('makes one load of concurrent misses of a key, and forgets a failed load', async () => {
    const cache = new TtlCache<number>(60_000);
    let release!: (n: number) => void;
    const load = jest.fn(() => new Promise<number>((resolve) => (release = resolve)));
    const waiting = [1, 2, 3].map(() => cache.getOrLoad('k', load));
    release(7);
    expect(await Promise.all(waiting)).toEqual([7, 7, 7]);
    expect(load).toHaveBeenCalledTimes(1);

    const failing = jest.fn().mockRejectedValueOnce(new Error('store down')).mockResolvedValueOnce(8);
    const failed = await Promise.allSettled([cache.getOrLoad('f', failing), cache.getOrLoad('f', failing)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await cache.getOrLoad('f', failing)).toBe(8);
    expect(failing).toHaveBeenCalledTimes(2);
  });
});
