import { PushpadFake } from '../../../../../test/fakes/push/pushpad.fake';
import { onlyAccepted, pushMessage } from '../../../../../test/fakes/push/push-test-kit';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { createProviderRuntime } from '../../provider-runtime';
import { PushpadProvider } from './pushpad.provider';

describe('PushpadProvider against a Pushpad fake', () => {
  const fake = new PushpadFake();
  const provider = new PushpadProvider(testRuntime());
  const credentials = () => ({ apiKey: fake.token, applicationId: fake.projectId, baseUrl: fake.origin });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it("POSTs the notification to the uid with the token header; the id is Pushpad's", async () => {
    const overrides = { targetUrl: 'https://example.com/posts/p1', iconUrl: 'https://example.com/i.png', ttl: 600, requireInteraction: true };
    const result = await provider.send(pushMessage('user-1'), credentials(), sendContext('m', { overrides }));
    const request = onlyAccepted(fake);
    expect(request.path).toBe('/api/v1/projects/123/notifications');
    expect(request.header('authorization')).toBe(`Token token="${fake.token}"`);
    expect(request.json()).toEqual({
      notification: {
        body: 'Ada replied to your post',
        title: 'New comment',
        target_url: 'https://example.com/posts/p1',
        icon_url: 'https://example.com/i.png',
        ttl: 600,
        require_interaction: true,
      },
      uids: ['user-1'],
    });
    expect(result.id).toBe('197123');
  });

  it('nothing scheduled (the uid has no subscription) fails without dropping the uid', async () => {
    fake.unsubscribed.add('user-2');
    const error = await providerFailure(provider.send(pushMessage('user-2'), credentials(), sendContext()));
    expect(error).toMatchObject({ kind: 'permanent', message: 'Pushpad has no subscription for uid user-2 (nothing scheduled)' });
    expect(error.target).toBeUndefined();
  });

  it.each([
    ['rate_limited', { kind: 'rate_limited', status: 429, retryAfterMs: 60_000 }],
    ['unavailable', { kind: 'retryable', status: 503 }],
    ['permanent', { kind: 'permanent', status: 402, retryable: false }],
    ['auth', { kind: 'auth', status: 403, retryable: false }],
  ] as const)('Pushpad %s answer is classified', async (outcome, expected) => {
    fake.failNext(outcome);
    expect(await providerFailure(provider.send(pushMessage('user-1'), credentials(), sendContext()))).toMatchObject(expected);
  });

  it("validation errors carry Pushpad's words (422 → invalid_request)", async () => {
    const error = await providerFailure(provider.send(pushMessage('user-1', { content: '' }), credentials(), sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_request', status: 422 });
    expect(error.message).toContain("body can't be blank");
  });

  it('a wrong token is refused (401 → auth)', async () => {
    expect(await providerFailure(provider.send(pushMessage('user-1'), { ...credentials(), apiKey: 'wrong' }, sendContext()))).toMatchObject({
      kind: 'auth',
      status: 401,
    });
  });

  it('missing credentials fail before any request', async () => {
    const error = await providerFailure(provider.send(pushMessage('user-1'), { baseUrl: fake.origin }, sendContext()));
    expect(error.message).toBe('The pushpad integration needs credentials.apiKey, credentials.applicationId');
    expect(fake.requests).toHaveLength(0);
  });

  it('the baseUrl passes the SSRF guard', async () => {
    const strict = new PushpadProvider(createProviderRuntime({ allowPrivateNetworkTargets: false }));
    expect((await providerFailure(strict.send(pushMessage('user-1'), credentials(), sendContext()))).kind).toBe('invalid_request');
    expect(fake.requests).toHaveLength(0);
  });

  it("check: reading the project passes; a wrong token or project fails with Pushpad's words", async () => {
    await expect(provider.check(credentials(), AbortSignal.timeout(5_000))).resolves.toEqual({ ok: true });
    await expect(provider.check({ ...credentials(), apiKey: 'wrong' }, AbortSignal.timeout(5_000))).resolves.toEqual({ ok: false, message: 'Unauthorized' });
    await expect(provider.check({ ...credentials(), applicationId: '999' }, AbortSignal.timeout(5_000))).resolves.toEqual({
      ok: false,
      message: 'Project not found',
    });
    expect(fake.accepted).toHaveLength(0);
  });
});
