import { generateKeyPairSync } from 'node:crypto';
import { ApnsFake } from '../../../../../test/fakes/push/apns.fake';
import { expectDeadToken, onlyAccepted, pushMessage } from '../../../../../test/fakes/push/push-test-kit';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { createProviderRuntime } from '../../provider-runtime';
import { deliveryUuid } from '../push-fields';
import { ApnsProvider } from './apns.provider';

const TOKEN = 'a1'.repeat(32);

describe('ApnsProvider against an APNs fake (HTTP/2 over TLS)', () => {
  const fake = new ApnsFake();
  const provider = new ApnsProvider(testRuntime());

  beforeAll(() => fake.start());
  afterAll(async () => {
    await provider.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  it('POSTs /3/device/{token} with an ES256 provider token Apple accepts; the id is the echoed apns-id', async () => {
    const overrides = {
      badge: 3,
      sound: 'ping.aiff',
      category: 'REPLY',
      threadId: 'post-p1',
      mutableContent: true,
      collapseId: 'post-p1',
      expiration: 1_900_000_000.5,
    };
    const result = await provider.send(pushMessage(TOKEN), fake.credentials(), sendContext('msg-7', { overrides }));
    const request = onlyAccepted(fake);
    expect(request.path).toBe(`/3/device/${TOKEN}`);
    expect(request.header('apns-topic')).toBe('com.example.app');
    expect(request.header('apns-push-type')).toBe('alert');
    expect(request.header('apns-priority')).toBe('10');
    expect(request.header('apns-expiration')).toBe('1900000000');
    expect(request.header('apns-collapse-id')).toBe('post-p1');
    expect(request.header('apns-id')).toBe(deliveryUuid('msg-7', TOKEN));
    expect(request.json()).toEqual({
      postId: 'p1',
      count: 2,
      aps: {
        alert: { title: 'New comment', body: 'Ada replied to your post' },
        badge: 3,
        sound: 'ping.aiff',
        category: 'REPLY',
        'thread-id': 'post-p1',
        'mutable-content': 1,
      },
    });
    expect(result.id).toBe(deliveryUuid('msg-7', TOKEN));
  });

  it('reuses one provider token across sends (Apple refuses frequent re-signing)', async () => {
    await provider.send(pushMessage(TOKEN), fake.credentials(), sendContext('a'));
    await provider.send(pushMessage(TOKEN), fake.credentials(), sendContext('b'));
    expect(fake.accepted).toHaveLength(2);
    expect(fake.providerTokens.size).toBe(1);
  });

  it('a background push carries content-available only, at priority 5; passthrough reaches body and headers', async () => {
    await provider.send(
      pushMessage(TOKEN),
      fake.credentials(),
      sendContext('m', { overrides: { pushType: 'background' }, passthrough: { body: { extra: 1 }, headers: { 'apns-priority': '5' } } }),
    );
    const request = onlyAccepted(fake);
    expect(request.header('apns-push-type')).toBe('background');
    expect(request.header('apns-priority')).toBe('5');
    expect(request.json()).toEqual({ postId: 'p1', count: 2, extra: 1, aps: { 'content-available': 1 } });
  });

  it.each([
    ['rate_limited', { kind: 'rate_limited', status: 429, providerCode: 'TooManyRequests' }],
    ['unavailable', { kind: 'retryable', status: 503, providerCode: 'ServiceUnavailable' }],
    ['permanent', { kind: 'invalid_request', status: 400, providerCode: 'BadCollapseId', retryable: false }],
    ['auth', { kind: 'auth', status: 403, providerCode: 'ExpiredProviderToken', retryable: false }],
  ] as const)('Apple %s answer is classified', async (outcome, expected) => {
    fake.failNext(outcome);
    expect(await providerFailure(provider.send(pushMessage(TOKEN), fake.credentials(), sendContext()))).toMatchObject(expected);
  });

  it('a refused provider token is dropped: the next send signs a new one', async () => {
    await provider.send(pushMessage(TOKEN), fake.credentials(), sendContext());
    fake.failNext('auth');
    await providerFailure(provider.send(pushMessage(TOKEN), fake.credentials(), sendContext()));
    await provider.send(pushMessage(TOKEN), fake.credentials(), sendContext());
    expect(fake.providerTokens.size).toBe(2);
  });

  it('410 Unregistered, BadDeviceToken and DeviceTokenNotForTopic are dead tokens', async () => {
    fake.unregistered.add(TOKEN);
    expectDeadToken(await providerFailure(provider.send(pushMessage(TOKEN), fake.credentials(), sendContext())), TOKEN, 'Unregistered');
    expectDeadToken(await providerFailure(provider.send(pushMessage('not-hex'), fake.credentials(), sendContext())), 'not-hex', 'BadDeviceToken');
    const other = 'b2'.repeat(32);
    const foreign = await providerFailure(
      provider.send(pushMessage(other), fake.credentials(), sendContext('m', { overrides: { topic: 'com.example.other' } })),
    );
    expectDeadToken(foreign, other, 'DeviceTokenNotForTopic');
    expect(foreign.status).toBe(400);
  });

  it('a key Apple does not know is InvalidProviderToken (auth)', async () => {
    const stranger = new ApnsFake();
    const error = await providerFailure(provider.send(pushMessage(TOKEN), { ...fake.credentials(), secretKey: stranger.privateKeyPem }, sendContext()));
    expect(error).toMatchObject({ kind: 'auth', status: 403, providerCode: 'InvalidProviderToken' });
  });

  it('missing credentials and a key that is not ES256 fail before any request', async () => {
    const missing = await providerFailure(provider.send(pushMessage(TOKEN), { baseUrl: fake.origin }, sendContext()));
    expect(missing.message).toBe('The apns integration needs credentials.secretKey, credentials.apiKey, credentials.projectName, credentials.applicationId');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const wrongKind = await providerFailure(provider.send(pushMessage(TOKEN), { ...fake.credentials(), secretKey: rsa }, sendContext()));
    expect(wrongKind).toMatchObject({ kind: 'invalid_request', message: 'The apns integration credentials.secretKey is not an ES256 (P-256) key' });
    expect(fake.requests).toHaveLength(0);
  });

  it('the connection passes the SSRF guard (literal address and resolved name) and trusts only the runtime CA', async () => {
    const strict = new ApnsProvider(createProviderRuntime({ allowPrivateNetworkTargets: false, extraCa: undefined }));
    const literal = await providerFailure(strict.send(pushMessage(TOKEN), fake.credentials(), sendContext()));
    expect(literal.kind).toBe('invalid_request');
    expect(literal.message).toContain('127.0.0.1');
    const named = await providerFailure(strict.send(pushMessage(TOKEN), { ...fake.credentials(), baseUrl: `https://localhost:${fake.port}` }, sendContext()));
    expect(named.kind).toBe('invalid_request');
    expect(named.message).toContain('non-public address');
    await strict.close();
    expect(fake.requests).toHaveLength(0);

    const untrusting = new ApnsProvider(createProviderRuntime({ allowPrivateNetworkTargets: true }));
    const tls = await providerFailure(untrusting.send(pushMessage(TOKEN), fake.credentials(), sendContext()));
    expect(tls.kind).toBe('permanent');
    expect(tls.message).toContain('TLS verification failed');
    await untrusting.close();
  });

  it('reconnects after its sessions were closed', async () => {
    await provider.send(pushMessage(TOKEN), fake.credentials(), sendContext());
    await provider.close();
    await provider.send(pushMessage(TOKEN), fake.credentials(), sendContext());
    expect(fake.accepted).toHaveLength(2);
  });

  it('check: signs locally with the .p8 key (Apple has no check endpoint)', async () => {
    await expect(provider.check(fake.credentials())).resolves.toEqual({ ok: true });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    await expect(provider.check({ ...fake.credentials(), secretKey: rsa })).resolves.toEqual({
      ok: false,
      message: 'The apns integration credentials.secretKey is not an ES256 (P-256) key',
    });
    expect(fake.requests).toHaveLength(0);
  });
});
