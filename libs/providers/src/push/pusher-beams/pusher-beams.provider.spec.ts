import { onlyAccepted, pushMessage } from '../../../../../test/fakes/push/push-test-kit';
import { PusherBeamsFake } from '../../../../../test/fakes/push/pusher-beams.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { createProviderRuntime } from '../../provider-runtime';
import { PusherBeamsProvider } from './pusher-beams.provider';

describe('PusherBeamsProvider against a Beams fake', () => {
  const fake = new PusherBeamsFake();
  const provider = new PusherBeamsProvider(testRuntime());
  const credentials = () => ({ instanceId: fake.instanceId, secretKey: fake.secretKey, baseUrl: fake.origin });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('publishes to the Beams user with one payload per platform; the id is the publishId', async () => {
    const overrides = { sound: 'default', badge: 1, icon: 'https://example.com/i.png', ttl: 3600, channelId: 'news', deepLink: 'https://example.com/posts/p1' };
    const result = await provider.send(pushMessage('user-1'), credentials(), sendContext('m', { overrides }));
    const request = onlyAccepted(fake);
    expect(request.path).toBe(`/publish_api/v1/instances/${fake.instanceId}/publishes/users`);
    expect(request.header('authorization')).toBe(`Bearer ${fake.secretKey}`);
    const alert = { title: 'New comment', body: 'Ada replied to your post' };
    const data = { postId: 'p1', count: 2 };
    expect(request.json()).toEqual({
      users: ['user-1'],
      apns: { aps: { alert, badge: 1, sound: 'default' } },
      fcm: { notification: { ...alert, android_channel_id: 'news', icon: 'https://example.com/i.png', sound: 'default' }, data, time_to_live: 3600 },
      web: { notification: { ...alert, icon: 'https://example.com/i.png', deep_link: 'https://example.com/posts/p1' }, data, time_to_live: 3600 },
    });
    expect(result.id).toMatch(/^pubid-[0-9a-f]{32}$/);
  });

  it.each([
    ['rate_limited', { kind: 'rate_limited', status: 429, retryAfterMs: 1_000 }],
    ['unavailable', { kind: 'retryable', status: 500 }],
    ['permanent', { kind: 'invalid_request', status: 413, retryable: false }],
    ['auth', { kind: 'auth', status: 401, retryable: false }],
  ] as const)('Beams %s answer is classified', async (outcome, expected) => {
    fake.failNext(outcome);
    expect(await providerFailure(provider.send(pushMessage('user-1'), credentials(), sendContext()))).toMatchObject(expected);
  });

  it('a user id Beams refuses is a bad request (Beams user ids are not device tokens, so the token is kept)', async () => {
    const error = await providerFailure(provider.send(pushMessage('u'.repeat(200)), credentials(), sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_request', status: 422 });
    expect(error.message).toContain('is invalid');
    expect(error.target).toBeUndefined();
  });

  it("a wrong secret key is refused with Beams' words", async () => {
    const error = await providerFailure(provider.send(pushMessage('user-1'), { ...credentials(), secretKey: 'wrong' }, sendContext()));
    expect(error).toMatchObject({ kind: 'auth', status: 401 });
    expect(error.message).toContain('Unauthorized: Incorrect API Key');
  });

  it('missing credentials and an instance id that is not one fail before any request', async () => {
    const missing = await providerFailure(provider.send(pushMessage('user-1'), { baseUrl: fake.origin }, sendContext()));
    expect(missing.message).toBe('The pusher-beams integration needs credentials.instanceId, credentials.secretKey');
    const hostile = await providerFailure(
      provider.send(pushMessage('user-1'), { ...credentials(), baseUrl: undefined, instanceId: 'evil.example.com/x' }, sendContext()),
    );
    expect(hostile).toMatchObject({ kind: 'invalid_request', message: 'The pusher-beams integration credentials.instanceId must be a Beams instance id' });
    expect(fake.requests).toHaveLength(0);
  });

  it('the baseUrl passes the SSRF guard', async () => {
    const strict = new PusherBeamsProvider(createProviderRuntime({ allowPrivateNetworkTargets: false }));
    expect((await providerFailure(strict.send(pushMessage('user-1'), credentials(), sendContext()))).kind).toBe('invalid_request');
    expect(fake.requests).toHaveLength(0);
  });
});
