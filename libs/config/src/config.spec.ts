import { ConfigError, loadConfig } from './config';

describe('loadConfig: QUEUE_PREFIX', () => {
  const base = { DATA_DIR: '/tmp/notify-config-spec', STORE_ENCRYPTION_KEY: 'a'.repeat(64) };

  it('defaults to "bull", Bull\'s own prefix', () => {
    expect(loadConfig(base).queuePrefix).toBe('bull');
  });

  it("takes a deployment's own prefix", () => {
    expect(loadConfig({ ...base, QUEUE_PREFIX: 'notify-eu.1:q' }).queuePrefix).toBe('notify-eu.1:q');
  });

  it.each(['has space', 'star*', 'x'.repeat(101)])('refuses %j, naming the variable', (value) => {
    expect(() => loadConfig({ ...base, QUEUE_PREFIX: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, QUEUE_PREFIX: value })).toThrow(/^Invalid configuration: QUEUE_PREFIX/);
  });
});

describe('loadConfig: QUEUE_LOCK_SECONDS, QUEUE_STALLED_CHECK_SECONDS', () => {
  const base = { DATA_DIR: '/tmp/notify-config-spec', STORE_ENCRYPTION_KEY: 'a'.repeat(64) };

  it("locks a running job for 30 s and leaves the stalled check to each queue's default", () => {
    expect(loadConfig(base).queueLock).toEqual({ lockMs: 30_000, stalledCheckMs: undefined });
  });

  it("takes a deployment's own lock and stalled check", () => {
    expect(loadConfig({ ...base, QUEUE_LOCK_SECONDS: '4', QUEUE_STALLED_CHECK_SECONDS: '2' }).queueLock).toEqual({ lockMs: 4_000, stalledCheckMs: 2_000 });
  });

  it.each([
    ['QUEUE_LOCK_SECONDS', '0'],
    ['QUEUE_LOCK_SECONDS', '1.5'],
    ['QUEUE_LOCK_SECONDS', '3601'],
    ['QUEUE_STALLED_CHECK_SECONDS', '0'],
    ['QUEUE_STALLED_CHECK_SECONDS', 'soon'],
  ])('refuses %s=%j, naming the variable', (name, value) => {
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name}`));
  });
});

describe('loadConfig: outbound webhooks and reply callbacks', () => {
  const base = { DATA_DIR: '/tmp/notify-config-spec', STORE_ENCRYPTION_KEY: 'a'.repeat(64) };

  it('retries webhooks at +5 s, +30 s, +2 min, +10 min, +30 min, +2 h, +5 h, +10 h by default; takes its own list', () => {
    expect(loadConfig(base).webhookRetryDelaysMs).toEqual([5_000, 30_000, 120_000, 600_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]);
    expect(loadConfig({ ...base, WEBHOOK_RETRY_DELAYS: '250ms, 1s,3m,1h' }).webhookRetryDelaysMs).toEqual([250, 1_000, 180_000, 3_600_000]);
    expect(loadConfig(base).webhookTimeoutMs).toBe(15_000);
  });

  it.each(['5', '5x', '1s,,2s', '200h'])('refuses WEBHOOK_RETRY_DELAYS=%j, naming the variable', (value) => {
    expect(() => loadConfig({ ...base, WEBHOOK_RETRY_DELAYS: value })).toThrow(/^Invalid configuration: WEBHOOK_RETRY_DELAYS/);
  });

  it('has no reply addresses and no mail receiver unless set; checks the domain', () => {
    expect(loadConfig(base)).toMatchObject({ inboundMailDomain: undefined, inboundMailPort: undefined });
    expect(loadConfig({ ...base, INBOUND_MAIL_DOMAIN: 'Replies.Example.com', INBOUND_MAIL_PORT: '2525' })).toMatchObject({
      inboundMailDomain: 'replies.example.com',
      inboundMailPort: 2525,
    });
    expect(() => loadConfig({ ...base, INBOUND_MAIL_DOMAIN: 'not a domain' })).toThrow(/^Invalid configuration: INBOUND_MAIL_DOMAIN/);
    expect(() => loadConfig({ ...base, INBOUND_MAIL_PORT: '70000' })).toThrow(/^Invalid configuration: INBOUND_MAIL_PORT/);
  });
});

describe('loadConfig: worker concurrency', () => {
  const base = { DATA_DIR: '/tmp/notify-config-spec', STORE_ENCRYPTION_KEY: 'a'.repeat(64) };

  it('runs 100 step jobs and 40 fan-out jobs at once by default', () => {
    expect(loadConfig(base)).toMatchObject({ workerConcurrency: 100, fanOutConcurrency: 40 });
  });

  it('runs no more fan-out jobs than WORKER_CONCURRENCY unless FANOUT_CONCURRENCY says so', () => {
    expect(loadConfig({ ...base, WORKER_CONCURRENCY: '8' })).toMatchObject({ workerConcurrency: 8, fanOutConcurrency: 8 });
    expect(loadConfig({ ...base, WORKER_CONCURRENCY: '8', FANOUT_CONCURRENCY: '60' })).toMatchObject({ workerConcurrency: 8, fanOutConcurrency: 60 });
  });

  it.each(['0', '1001', 'many'])('refuses FANOUT_CONCURRENCY=%j, naming the variable', (value) => {
    expect(() => loadConfig({ ...base, FANOUT_CONCURRENCY: value })).toThrow(/^Invalid configuration: FANOUT_CONCURRENCY/);
  });
});

describe('loadConfig: Redis command timeout', () => {
  const base = { DATA_DIR: '/tmp/notify-config-spec', STORE_ENCRYPTION_KEY: 'a'.repeat(64) };

  it('bounds a Redis command at 2 s by default; takes its own', () => {
    expect(loadConfig(base).redisCommandTimeoutMs).toBe(2_000);
    expect(loadConfig({ ...base, REDIS_COMMAND_TIMEOUT_MS: '500' }).redisCommandTimeoutMs).toBe(500);
  });

  it.each(['0', '60001', 'soon'])('refuses REDIS_COMMAND_TIMEOUT_MS=%j, naming the variable', (value) => {
    expect(() => loadConfig({ ...base, REDIS_COMMAND_TIMEOUT_MS: value })).toThrow(/^Invalid configuration: REDIS_COMMAND_TIMEOUT_MS/);
  });
});

describe('loadConfig: METRICS_TOKEN', () => {
  const base = { DATA_DIR: '/tmp/notify-config-spec', STORE_ENCRYPTION_KEY: 'a'.repeat(64) };

  it('is unset by default; takes a bearer token', () => {
    expect(loadConfig(base).metricsToken).toBeUndefined();
    expect(loadConfig({ ...base, METRICS_TOKEN: 'mF3k+9/Qz_x.~-Lp0aB==' }).metricsToken).toBe('mF3k+9/Qz_x.~-Lp0aB==');
  });

  it.each(['short-token', 'has a space in it!!', 'x'.repeat(257), '=leading-equals-sign-0123'])('refuses METRICS_TOKEN=%j, naming the variable', (value) => {
    expect(() => loadConfig({ ...base, METRICS_TOKEN: value })).toThrow(/^Invalid configuration: METRICS_TOKEN/);
  });
});
