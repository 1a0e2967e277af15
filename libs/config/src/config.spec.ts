import { ConfigError, loadConfig } from './config';

describe('loadConfig: QUEUE_PREFIX', () => {
  const base = { DATA_DIR: '/tmp/notify-config-spec', STORE_ENCRYPTION_KEY: 'a'.repeat(64) };

  it('defaults to "bull", Bull\'s own prefix', () => {
    expect(loadConfig(base).queuePrefix).toBe('bull');
  });

  it('takes a deployment\'s own prefix', () => {
    expect(loadConfig({ ...base, QUEUE_PREFIX: 'notify-eu.1:q' }).queuePrefix).toBe('notify-eu.1:q');
  });

  it.each(['has space', 'star*', 'x'.repeat(101)])('refuses %j, naming the variable', (value) => {
    expect(() => loadConfig({ ...base, QUEUE_PREFIX: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, QUEUE_PREFIX: value })).toThrow(/^Invalid configuration: QUEUE_PREFIX/);
  });
});
