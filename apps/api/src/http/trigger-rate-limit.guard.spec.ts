import { ExecutionContext } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { Clock, RateLimitStore, systemClock } from '@app/kernel';
import { SHARED_COUNTER_RETRY_MS, TriggerRateLimitGuard, TriggerRateLimitedError } from './trigger-rate-limit.guard';

describe('TriggerRateLimitGuard', () => {
  const headers = new Map<string, string>();
  const context = (user?: object) =>
    ({
      switchToHttp: () => ({
        getRequest: () => ({ user }),
        getResponse: () => {
          const reply = {
            header: (name: string, value: string) => (headers.set(name, value), reply),
            headers: (values: Record<string, string>) => (Object.entries(values).forEach(([name, value]) => headers.set(name, value)), reply),
          };
          return reply;
        },
      }),
    }) as unknown as ExecutionContext;
  const config = (limit: number) => ({ triggerRateLimit: { limit, windowMs: 60_000 } }) as AppConfig;
  const user = { organizationId: 'org', environmentId: 'env-1', apiKeyId: 'key' };

  beforeEach(() => headers.clear());

  it('counts per environment and refuses past the limit with the headers', async () => {
    const keys: string[] = [];
    let count = 0;
    const store: RateLimitStore = { hit: async (key) => (keys.push(key), { count: ++count, resetInMs: 12_300 }) };
    const guard = new TriggerRateLimitGuard(config(2), store, systemClock);
    expect(await guard.canActivate(context(user))).toBe(true);
    expect(Object.fromEntries(headers)).toEqual({ 'RateLimit-Limit': '2', 'RateLimit-Remaining': '1', 'RateLimit-Reset': '13' });
    expect(await guard.canActivate(context(user))).toBe(true);
    await expect(guard.canActivate(context(user))).rejects.toBeInstanceOf(TriggerRateLimitedError);
    expect(Object.fromEntries(headers)).toEqual({ 'RateLimit-Limit': '2', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '13', 'Retry-After': '13' });
    expect(keys).toEqual(['trigger:env-1', 'trigger:env-1', 'trigger:env-1']);
  });

  it('does nothing at all with a limit of 0', () => {
    const store: RateLimitStore = { hit: jest.fn() };
    expect(new TriggerRateLimitGuard(config(0), store, systemClock).canActivate(context(user))).toBe(true);
    expect(store.hit).not.toHaveBeenCalled();
    expect(headers.size).toBe(0);
  });

  it('counts in the process with the same limit while the shared counter fails, tries it again now and then, and logs the outage once', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const clock: Clock = { now: () => new Date(now) };
    let down = true;
    let shared = 0;
    const hit = jest.fn(async () => {
      if (down) throw new Error('Command timed out');
      return { count: ++shared, resetInMs: 30_000 };
    });
    const guard = new TriggerRateLimitGuard(config(2), { hit }, clock);
    const logger = (guard as unknown as { logger: { warn: () => void; log: () => void } }).logger;
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(logger, 'log').mockImplementation(() => undefined);

    expect(await guard.canActivate(context(user))).toBe(true);
    expect(Object.fromEntries(headers)).toEqual({ 'RateLimit-Limit': '2', 'RateLimit-Remaining': '1', 'RateLimit-Reset': '60' });
    expect(await guard.canActivate(context(user))).toBe(true);
    await expect(guard.canActivate(context(user))).rejects.toBeInstanceOf(TriggerRateLimitedError);
    expect(hit).toHaveBeenCalledTimes(1); // the others did not wait for it
    // another environment has its own count here too
    expect(await guard.canActivate(context({ ...user, environmentId: 'env-2' }))).toBe(true);

    now += SHARED_COUNTER_RETRY_MS;
    await expect(guard.canActivate(context(user))).rejects.toBeInstanceOf(TriggerRateLimitedError);
    expect(hit).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledTimes(1);

    down = false;
    now += SHARED_COUNTER_RETRY_MS;
    expect(await guard.canActivate(context(user))).toBe(true);
    expect(Object.fromEntries(headers)).toMatchObject({ 'RateLimit-Remaining': '1', 'RateLimit-Reset': '30' });
    expect(await guard.canActivate(context(user))).toBe(true);
    expect(hit).toHaveBeenCalledTimes(4);
    expect(log).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
