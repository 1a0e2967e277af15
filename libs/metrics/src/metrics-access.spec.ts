import { Test } from '@nestjs/testing';
import { MetricsAccess } from './metrics-access';
import { MetricsModule } from './metrics.module';
import { MetricsServer } from './metrics-server';

describe('MetricsAccess', () => {
  const token = 'scrape-token-0123456789';

  it('lets every scrape through when no token is set', () => {
    const open = new MetricsAccess();
    expect(open.allows(undefined)).toBe(true);
    expect(open.allows('ApiKey whatever')).toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['another token', 'Bearer scrape-token-0123456780'],
    ['a prefix of it', 'Bearer scrape-token'],
    ['the token without the scheme', token],
    ['another scheme', `ApiKey ${token}`],
    ['two tokens', `Bearer ${token} ${token}`],
  ])('with a token, refuses %s', (_what, header) => {
    expect(new MetricsAccess(token).allows(header)).toBe(false);
  });

  it('with a token, lets through `Bearer <token>` (the scheme in any case)', () => {
    const access = new MetricsAccess(token);
    expect(access.allows(`Bearer ${token}`)).toBe(true);
    expect(access.allows(`bearer ${token}`)).toBe(true);
  });
});

describe('MetricsServer with a token', () => {
  it('answers 401 with a JSON body and a Bearer challenge without it, 200 with it', async () => {
    const token = 'scrape-token-0123456789';
    const moduleRef = await Test.createTestingModule({
      imports: [MetricsModule.forRoot({ port: 0, host: '127.0.0.1', token, defaultMetrics: false })],
    }).compile();
    await moduleRef.init();
    try {
      const url = `http://127.0.0.1:${moduleRef.get(MetricsServer).boundPort}/metrics`;
      for (const headers of [{}, { Authorization: 'Bearer wrong-token-0123456789' }] as Record<string, string>[]) {
        const refused = await fetch(url, { headers });
        expect(refused.status).toBe(401);
        expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
        expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(await refused.json()).toMatchObject({ statusCode: 401, path: '/metrics', error: 'Unauthorized', code: 'metrics_token_required' });
      }
      const scrape = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
      expect(scrape.status).toBe(200);
      expect(await scrape.text()).toContain('# TYPE notify_triggers_accepted_total counter');
    } finally {
      await moduleRef.close();
    }
  });
});
