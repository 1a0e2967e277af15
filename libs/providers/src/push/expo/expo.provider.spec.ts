import { ExpoFake } from '../../../../../test/fakes/push/expo.fake';
import { expectDeadToken, onlyAccepted, pushMessage } from '../../../../../test/fakes/push/push-test-kit';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { createProviderRuntime } from '../../provider-runtime';
import { ExpoProvider } from './expo.provider';

const TOKEN = 'ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]';

describe('ExpoProvider against an Expo push fake', () => {
  const fake = new ExpoFake();
  const provider = new ExpoProvider(testRuntime());
  const credentials = () => ({ apiKey: fake.accessToken, baseUrl: fake.origin });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('sends a one-message array with the access token; the id is the ticket id', async () => {
    const overrides = { sound: 'default', badge: '4', channelId: 'news', priority: 'high', ttl: 60 };
    const result = await provider.send(
      pushMessage(TOKEN),
      credentials(),
      sendContext('m', { overrides, passthrough: { body: { subtitle: 'via passthrough' } } }),
    );
    const request = onlyAccepted(fake);
    expect(request.header('authorization')).toBe(`Bearer ${fake.accessToken}`);
    expect(request.json()).toEqual([
      {
        to: TOKEN,
        title: 'New comment',
        body: 'Ada replied to your post',
        data: { postId: 'p1', count: 2 },
        sound: 'default',
        badge: 4,
        channelId: 'news',
        priority: 'high',
        ttl: 60,
        subtitle: 'via passthrough',
      },
    ]);
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('overrides.data replaces the trigger payload as the message data', async () => {
    await provider.send(pushMessage(TOKEN), credentials(), sendContext('m', { overrides: { data: { url: '/posts/p1' } } }));
    expect(onlyAccepted(fake).json()[0].data).toEqual({ url: '/posts/p1' });
  });

  it('a DeviceNotRegistered ticket is a dead token, also for strings that are no Expo token', async () => {
    fake.unregistered.add(TOKEN);
    const gone = await providerFailure(provider.send(pushMessage(TOKEN), credentials(), sendContext()));
    expectDeadToken(gone, TOKEN, 'DeviceNotRegistered');
    expect(gone.message).toContain('is not a registered push notification recipient');
    expectDeadToken(await providerFailure(provider.send(pushMessage('fcm-raw-token'), credentials(), sendContext())), 'fcm-raw-token', 'DeviceNotRegistered');
  });

  it.each([
    ['rate_limited', { kind: 'rate_limited', status: 429, providerCode: 'TOO_MANY_REQUESTS', retryAfterMs: 5_000 }],
    ['unavailable', { kind: 'retryable', status: 503, providerCode: 'INTERNAL_SERVER_ERROR' }],
    ['permanent', { kind: 'invalid_request', status: 200, providerCode: 'MessageTooBig', retryable: false }],
    ['auth', { kind: 'auth', status: 200, providerCode: 'InvalidCredentials', retryable: false }],
  ] as const)('Expo %s answer (request-level or ticket) is classified', async (outcome, expected) => {
    fake.failNext(outcome);
    const error = await providerFailure(provider.send(pushMessage(TOKEN), credentials(), sendContext()));
    expect(error).toMatchObject(expected);
    expect(error.target).toBeUndefined();
  });

  it('ticket errors in a 200: MessageRateExceeded waits, MismatchSenderId is the credentials', async () => {
    fake.ticketErrorNext('MessageRateExceeded', 'MismatchSenderId');
    expect(await providerFailure(provider.send(pushMessage(TOKEN), credentials(), sendContext()))).toMatchObject({
      kind: 'rate_limited',
      providerCode: 'MessageRateExceeded',
    });
    expect(await providerFailure(provider.send(pushMessage(TOKEN), credentials(), sendContext()))).toMatchObject({
      kind: 'auth',
      providerCode: 'MismatchSenderId',
    });
  });

  it('concurrent sends through one access token go in one request, up to 100; each message gets its own ticket id or failure', async () => {
    const tokens = Array.from({ length: 103 }, (_, i) => `ExponentPushToken[batch-${i}]`);
    fake.unregistered.add(tokens[1]);
    const outcomes = await Promise.allSettled(
      tokens.map((token, i) => provider.send(pushMessage(token, { id: `m-${i}` }), credentials(), sendContext(`m-${i}`))),
    );
    expect(fake.requests.map((request) => request.json().length)).toEqual([100, 3]);
    expect(
      fake.requests[0]
        .json()
        .slice(0, 3)
        .map((message: { to: string }) => message.to),
    ).toEqual(tokens.slice(0, 3));
    const ids = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.id : undefined));
    expect(new Set(ids.filter(Boolean)).size).toBe(102);
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: { kind: 'invalid_recipient', target: tokens[1] } });
  });

  it('a request-level failure of a batch fails each of its messages, and the batch is not sent again one by one', async () => {
    fake.failNext('rate_limited');
    const outcomes = await Promise.allSettled([TOKEN, `${TOKEN}2`].map((token) => provider.send(pushMessage(token), credentials(), sendContext())));
    expect(outcomes.map((outcome) => outcome.status === 'rejected' && outcome.reason.kind)).toEqual(['rate_limited', 'rate_limited']);
    expect(fake.requests).toHaveLength(1);
  });

  it('a wrong access token is refused by Expo (401 UNAUTHORIZED → auth)', async () => {
    const error = await providerFailure(provider.send(pushMessage(TOKEN), { ...credentials(), apiKey: 'wrong' }, sendContext()));
    expect(error).toMatchObject({ kind: 'auth', status: 401, providerCode: 'UNAUTHORIZED' });
    expect(error.message).not.toContain('wrong');
  });

  it('missing credentials fail before any request', async () => {
    const error = await providerFailure(provider.send(pushMessage(TOKEN), { baseUrl: fake.origin }, sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_request', message: 'The expo integration needs credentials.apiKey' });
    expect(fake.requests).toHaveLength(0);
  });

  it('the baseUrl passes the SSRF guard', async () => {
    const strict = new ExpoProvider(createProviderRuntime({ allowPrivateNetworkTargets: false }));
    expect((await providerFailure(strict.send(pushMessage(TOKEN), credentials(), sendContext()))).kind).toBe('invalid_request');
    expect(fake.requests).toHaveLength(0);
  });
});
