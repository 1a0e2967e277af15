import { FcmFake } from '../../../../../test/fakes/push/fcm.fake';
import { expectDeadToken, onlyAccepted, pushMessage } from '../../../../../test/fakes/push/push-test-kit';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { createProviderRuntime } from '../../provider-runtime';
import { FcmProvider } from './fcm.provider';

const TOKEN = 'fcm-token:APA91bH-device-0001';

describe('FcmProvider against Google token + FCM v1 fakes', () => {
  const fake = new FcmFake();
  let provider: FcmProvider;
  const credentials = (serviceAccount = fake.serviceAccount()) => ({ serviceAccount, baseUrl: fake.origin });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.reset();
    provider = new FcmProvider(testRuntime());
  });

  it('exchanges the service account for a token once, then sends a v1 message FCM accepts; the id is `name`', async () => {
    const result = await provider.send(
      pushMessage(TOKEN),
      credentials(),
      sendContext('msg-1', { overrides: { data: { postId: 'p1', n: 3 }, image: 'https://example.com/i.png' } }),
    );
    const request = onlyAccepted(fake);
    expect(request.path).toBe('/v1/projects/demo-project/messages:send');
    expect(request.json()).toEqual({
      message: {
        token: TOKEN,
        notification: { title: 'New comment', body: 'Ada replied to your post', image: 'https://example.com/i.png' },
        data: { postId: 'p1', n: '3' },
      },
    });
    expect(result.id).toMatch(/^projects\/demo-project\/messages\/0:/);
    await provider.send(pushMessage(TOKEN), credentials(), sendContext());
    expect(fake.tokenExchanges).toBe(1);
  });

  it("Novu's data-only type moves title and body into data (with the payload, all strings)", async () => {
    await provider.send(pushMessage(TOKEN), credentials(), sendContext('m', { overrides: { type: 'data', data: { extra: true } } }));
    expect(onlyAccepted(fake).json().message).toEqual({
      token: TOKEN,
      data: { postId: 'p1', count: '2', extra: 'true', title: 'New comment', body: 'Ada replied to your post', message: 'Ada replied to your post' },
    });
  });

  it('android / apns / webPush / fcmOptions overrides in firebase-admin form reach FCM in v1 form', async () => {
    const overrides = {
      android: { ttl: 3_600_000, priority: 'high', notification: { channelId: 'news' } },
      apns: { payload: { aps: { mutableContent: true, threadId: 't1', badge: 3 } } },
      webPush: { fcmOptions: { link: 'https://example.com' } },
      fcmOptions: { analyticsLabel: 'campaign' },
    };
    await provider.send(
      pushMessage(TOKEN),
      credentials(),
      sendContext('m', { overrides, passthrough: { body: { message: { android: { collapse_key: 'c' } } } } }),
    );
    expect(onlyAccepted(fake).json().message).toMatchObject({
      android: { ttl: '3600s', priority: 'HIGH', notification: { channelId: 'news' }, collapse_key: 'c' },
      apns: { payload: { aps: { 'mutable-content': 1, 'thread-id': 't1', badge: 3 } } },
      webpush: { fcmOptions: { link: 'https://example.com' } },
      fcm_options: { analyticsLabel: 'campaign' },
    });
  });

  it('concurrent sends share one token exchange', async () => {
    await Promise.all([1, 2, 3].map((n) => provider.send(pushMessage(`${TOKEN}-${n}`), credentials(), sendContext(`m${n}`))));
    expect(fake.tokenExchanges).toBe(1);
    expect(fake.accepted).toHaveLength(3);
  });

  it('FCM has no batch: concurrent sends are single sends sharing one access token and the kept-alive sockets of the waves before', async () => {
    const wave = (w: number) =>
      Promise.all(Array.from({ length: 20 }, (_, n) => provider.send(pushMessage(`${TOKEN}-${w}-${n}`), credentials(), sendContext(`m${w}-${n}`))));
    await wave(0);
    const opened = fake.connections;
    await wave(1);
    await wave(2);
    expect(fake.tokenExchanges).toBe(1);
    expect(fake.accepted).toHaveLength(60);
    // each message its own request; later waves ride the sockets the first one opened
    expect(fake.connections).toBe(opened);
    expect(opened).toBeLessThanOrEqual(21);
  });

  it('a token Google revoked early is dropped: one fresh exchange and the send goes through', async () => {
    await provider.send(pushMessage(TOKEN), credentials(), sendContext());
    fake.revokeTokens();
    await provider.send(pushMessage(TOKEN), credentials(), sendContext());
    expect(fake.tokenExchanges).toBe(2);
    expect(fake.accepted).toHaveLength(2);
    expect(fake.refusals.map((r) => r.reason)).toEqual(['bad access token']);
  });

  it.each([
    ['rate_limited', { kind: 'rate_limited', status: 429, providerCode: 'QUOTA_EXCEEDED', retryAfterMs: 30_000 }],
    ['unavailable', { kind: 'retryable', status: 503, providerCode: 'UNAVAILABLE' }],
    ['permanent', { kind: 'invalid_request', status: 400, providerCode: 'INVALID_ARGUMENT', retryable: false }],
    ['auth', { kind: 'auth', status: 401, providerCode: 'THIRD_PARTY_AUTH_ERROR', retryable: false }],
  ] as const)('FCM %s answer is classified', async (outcome, expected) => {
    fake.failNext(outcome);
    const error = await providerFailure(provider.send(pushMessage(TOKEN), credentials(), sendContext()));
    expect(error).toMatchObject(expected);
    expect(error.target).toBeUndefined();
  });

  it('UNREGISTERED and an invalid registration token are dead tokens (invalid_recipient naming the token)', async () => {
    fake.unregistered.add(TOKEN);
    const gone = await providerFailure(provider.send(pushMessage(TOKEN), credentials(), sendContext()));
    expectDeadToken(gone, TOKEN, 'UNREGISTERED');
    expect(gone.status).toBe(404);
    const malformed = await providerFailure(provider.send(pushMessage('short'), credentials(), sendContext()));
    expectDeadToken(malformed, 'short', 'INVALID_ARGUMENT');
    expect(malformed.message).toContain('The registration token is not a valid FCM registration token');
  });

  it('a service account of another project is refused (SENDER_ID_MISMATCH → auth)', async () => {
    const error = await providerFailure(provider.send(pushMessage(TOKEN), credentials(fake.serviceAccount({ project_id: 'other' })), sendContext()));
    expect(error).toMatchObject({ kind: 'auth', status: 403, providerCode: 'SENDER_ID_MISMATCH' });
  });

  it('a key Google does not know fails the exchange as auth, and nothing is sent', async () => {
    const stranger = new FcmFake();
    const error = await providerFailure(
      provider.send(
        pushMessage(TOKEN),
        credentials(fake.serviceAccount({ private_key: stranger.privateKey.export({ type: 'pkcs8', format: 'pem' }) })),
        sendContext(),
      ),
    );
    expect(error).toMatchObject({ kind: 'auth', status: 400, providerCode: 'invalid_grant' });
    expect(error.message).toContain('Invalid JWT Signature.');
    expect(fake.requests.map((r) => r.path)).toEqual(['/token']);
  });

  it('missing or unusable service accounts fail before any request, naming the field but not the key', async () => {
    const missing = await providerFailure(provider.send(pushMessage(TOKEN), { baseUrl: fake.origin }, sendContext()));
    expect(missing.message).toBe('The fcm integration needs credentials.serviceAccount');
    const partial = await providerFailure(provider.send(pushMessage(TOKEN), credentials(JSON.stringify({ project_id: 'p' })), sendContext()));
    expect(partial).toMatchObject({ kind: 'invalid_request', message: "The fcm integration's credentials.serviceAccount lacks client_email, private_key" });
    const badKey = await providerFailure(
      provider.send(
        pushMessage(TOKEN),
        credentials(fake.serviceAccount({ private_key: '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----' })),
        sendContext(),
      ),
    );
    expect(badKey.kind).toBe('invalid_request');
    expect(badKey.message).not.toContain('nope');
    expect(fake.requests).toHaveLength(0);
  });

  it('token_uri and baseUrl pass the SSRF guard: loopback is refused unless the deployment allows it', async () => {
    const strict = new FcmProvider(createProviderRuntime({ allowPrivateNetworkTargets: false }));
    const error = await providerFailure(strict.send(pushMessage(TOKEN), credentials(), sendContext()));
    expect(error.kind).toBe('invalid_request');
    expect(error.message).toContain('non-public address 127.0.0.1');
    expect(fake.requests).toHaveLength(0);
  });

  it("check: the token exchange passes for the real key and fails with Google's words for another", async () => {
    await expect(provider.check(credentials(), AbortSignal.timeout(5_000))).resolves.toEqual({ ok: true });
    const stranger = new FcmFake();
    const result = await provider.check(
      credentials(fake.serviceAccount({ private_key: stranger.privateKey.export({ type: 'pkcs8', format: 'pem' }) })),
      AbortSignal.timeout(5_000),
    );
    expect(result).toEqual({ ok: false, message: 'Google refused the service account: invalid_grant: Invalid JWT Signature.' });
    expect(fake.accepted).toHaveLength(0);
  });
});
