import { ExecutionContext } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { RateLimitStore } from '@app/kernel';
import { TriggerRateLimitGuard, TriggerRateLimitedError } from './trigger-rate-limit.guard';

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
    const guard = new TriggerRateLimitGuard(config(2), store);
    expect(await guard.canActivate(context(user))).toBe(true);
    expect(Object.fromEntries(headers)).toEqual({ 'RateLimit-Limit': '2', 'RateLimit-Remaining': '1', 'RateLimit-Reset': '13' });
    expect(await guard.canActivate(context(user))).toBe(true);
    await expect(guard.canActivate(context(user))).rejects.toBeInstanceOf(TriggerRateLimitedError);
    expect(Object.fromEntries(headers)).toEqual({ 'RateLimit-Limit': '2', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '13', 'Retry-After': '13' });
    expect(keys).toEqual(['trigger:env-1', 'trigger:env-1', 'trigger:env-1']);
  });

  it('does nothing at all with a limit of 0', () => {
    const store: RateLimitStore = { hit: jest.fn() };
    expect(new TriggerRateLimitGuard(config(0), store).canActivate(context(user))).toBe(true);
    expect(store.hit).not.toHaveBeenCalled();
    expect(headers.size).toBe(0);
  });

  it('lets requests through, without headers, when the counter cannot be reached', async () => {
    const store: RateLimitStore = { hit: async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')) };
    const guard = new TriggerRateLimitGuard(config(1), store);
    jest.spyOn((guard as unknown as { logger: { warn: () => void } }).logger, 'warn').mockImplementation(() => undefined);
    expect(await guard.canActivate(context(user))).toBe(true);
    expect(await guard.canActivate(context(user))).toBe(true);
    expect(headers.size).toBe(0);
  });
});
