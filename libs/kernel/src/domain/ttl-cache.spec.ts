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
});
