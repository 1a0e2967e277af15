import { randomUUID } from 'node:crypto';
import { PushMessage } from '@app/delivery';
import { OneSignalFake } from '../../../../../test/fakes/push/one-signal.fake';
import { expectDeadToken, onlyAccepted, pushMessage } from '../../../../../test/fakes/push/push-test-kit';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { createProviderRuntime } from '../../provider-runtime';
import { deliveryUuid } from '../push-fields';
import { OneSignalProvider } from './one-signal.provider';

const PLAYER = '1dd608f2-c6a1-11e3-851d-000c2940e62c';

describe('OneSignalProvider against a OneSignal fake', () => {
  const fake = new OneSignalFake();
  const provider = new OneSignalProvider(testRuntime());
  const legacy = () => ({ applicationId: fake.appId, apiKey: fake.restKey, baseUrl: fake.origin });
  const current = () => ({ ...legacy(), apiVersion: 'externalId' });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it("legacy (Novu's default): POST /api/v1/notifications to the player id, Basic key; the id is OneSignal's", async () => {
    const overrides = { sound: 'ping.wav', badge: 2, channelId: 'news', icon: 'ic_stat', categoryId: 'REPLY', subtitle: 'Thread', mutableContent: true };
    const result = await provider.send(pushMessage(PLAYER), legacy(), sendContext('msg-3', { overrides }));
    const request = onlyAccepted(fake);
    expect(request.path).toBe('/api/v1/notifications');
    expect(request.header('authorization')).toBe(`Basic ${fake.restKey}`);
    expect(request.json()).toEqual({
      app_id: fake.appId,
      include_player_ids: [PLAYER],
      headings: { en: 'New comment' },
      contents: { en: 'Ada replied to your post' },
      subtitle: { en: 'Thread' },
      data: { postId: 'p1', count: 2 },
      ios_badgeType: 'SetTo',
      ios_badgeCount: 2,
      ios_sound: 'ping.wav',
      android_sound: 'ping.wav',
      mutable_content: true,
      android_channel_id: 'news',
      small_icon: 'ic_stat',
      large_icon: 'ic_stat',
      chrome_icon: 'ic_stat',
      firefox_icon: 'ic_stat',
      ios_category: 'REPLY',
      idempotency_key: deliveryUuid('msg-3', PLAYER),
    });
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('apiVersion externalId: POST /notifications to the External ID alias on the push channel, Key auth', async () => {
    await provider.send(pushMessage('user-42'), current(), sendContext());
    const request = onlyAccepted(fake);
    expect(request.path).toBe('/notifications');
    expect(request.header('authorization')).toBe(`Key ${fake.restKey}`);
    expect(request.json()).toMatchObject({
      include_aliases: { external_id: ['user-42'] },
      target_channel: 'push',
      ios_badgeType: 'Increase',
      ios_badgeCount: 1,
    });
  });

  it("a redelivery of the same message replays OneSignal's answer (idempotency key) instead of sending twice", async () => {
    const first = await provider.send(pushMessage(PLAYER), legacy(), sendContext('msg-9'));
    const again = await provider.send(pushMessage(PLAYER), legacy(), sendContext('msg-9'));
    expect(again.id).toBe(first.id);
    expect(fake.accepted).toHaveLength(1);
  });

  it('a 200 naming the device as invalid is a dead token, in both APIs', async () => {
    fake.unknown.add(PLAYER).add('user-gone');
    expectDeadToken(await providerFailure(provider.send(pushMessage(PLAYER), legacy(), sendContext())), PLAYER, 'invalid_player_ids');
    const alias = await providerFailure(provider.send(pushMessage('user-gone'), current(), sendContext()));
    expectDeadToken(alias, 'user-gone', 'invalid_aliases');
    expect(alias.status).toBe(200);
  });

  it('a 200 with an empty id and no invalid ids is not sent, but the token is kept (unsubscribed device)', async () => {
    fake.unsubscribed.add(PLAYER);
    const error = await providerFailure(provider.send(pushMessage(PLAYER), legacy(), sendContext()));
    expect(error).toMatchObject({ kind: 'permanent', message: 'OneSignal did not send the notification: All included players are not subscribed' });
    expect(error.target).toBeUndefined();
  });

  it.each([
    ['rate_limited', { kind: 'rate_limited', status: 429, retryAfterMs: 10_000 }],
    ['unavailable', { kind: 'retryable', status: 502 }],
    ['permanent', { kind: 'invalid_request', status: 400, retryable: false }],
    ['auth', { kind: 'auth', status: 403, retryable: false }],
    ['invalid_recipient', { kind: 'invalid_recipient', target: PLAYER, providerCode: 'invalid_player_ids' }],
  ] as const)('OneSignal %s answer is classified', async (outcome, expected) => {
    fake.failNext(outcome);
    expect(await providerFailure(provider.send(pushMessage(PLAYER), legacy(), sendContext()))).toMatchObject(expected);
  });

  describe('batches', () => {
    const players = (count: number) => Array.from({ length: count }, () => randomUUID());
    const sendAll = (targets: string[], extra: (i: number) => Partial<PushMessage> = () => ({})) =>
      Promise.allSettled(targets.map((target, i) => provider.send(pushMessage(target, { id: `m-${i}`, ...extra(i) }), legacy(), sendContext(`m-${i}`))));

    it('notifications alike sent at once go as one notification to every device; each message keeps its id', async () => {
      const targets = players(3);
      const outcomes = await sendAll(targets);
      const request = onlyAccepted(fake);
      expect(request.json().include_player_ids).toEqual(targets);
      const results = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : undefined));
      expect(new Set(results.map((result) => result?.id)).size).toBe(1);
      expect(results[0]?.raw).toMatchObject({ status: 200, batch: 3 });
    });

    it('a device the answer names as invalid fails alone as a dead token; the others are sent', async () => {
      const targets = players(3);
      fake.unknown.add(targets[1]);
      const outcomes = await sendAll(targets);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expectDeadToken((outcomes[1] as PromiseRejectedResult).reason, targets[1], 'invalid_player_ids');
      expect(fake.requests).toHaveLength(1);
    });

    it("a 429 is every message's; notifications that differ go apart; over 2,000 devices split (the fake refuses more)", async () => {
      fake.failNext('rate_limited');
      const limited = await sendAll(players(2));
      expect(limited.map((outcome) => outcome.status === 'rejected' && outcome.reason.kind)).toEqual(['rate_limited', 'rate_limited']);
      fake.reset();
      await sendAll(players(2), (i) => ({ content: `Reply ${i}` }));
      expect(fake.accepted.map((request) => request.json().include_player_ids.length)).toEqual([1, 1]);
      fake.reset();
      const many = await sendAll(players(2001));
      expect(many.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      expect(fake.accepted.map((request) => request.json().include_player_ids.length).sort((a, b) => a - b)).toEqual([1, 2000]);
    });
  });

  it("a wrong REST key is refused with OneSignal's words", async () => {
    const error = await providerFailure(provider.send(pushMessage(PLAYER), { ...legacy(), apiKey: 'wrong' }, sendContext()));
    expect(error).toMatchObject({ kind: 'auth', status: 403 });
    expect(error.message).toContain('Access denied.');
  });

  it('missing credentials and an unknown apiVersion fail before any request', async () => {
    const missing = await providerFailure(provider.send(pushMessage(PLAYER), { baseUrl: fake.origin }, sendContext()));
    expect(missing.message).toBe('The one-signal integration needs credentials.applicationId, credentials.apiKey');
    const version = await providerFailure(provider.send(pushMessage(PLAYER), { ...legacy(), apiVersion: 'v3' }, sendContext()));
    expect(version).toMatchObject({ kind: 'invalid_request', message: 'The one-signal integration credentials.apiVersion must be externalId or playerModel' });
    expect(fake.requests).toHaveLength(0);
  });

  it('the baseUrl passes the SSRF guard', async () => {
    const strict = new OneSignalProvider(createProviderRuntime({ allowPrivateNetworkTargets: false }));
    expect((await providerFailure(strict.send(pushMessage(PLAYER), legacy(), sendContext()))).kind).toBe('invalid_request');
    expect(fake.requests).toHaveLength(0);
  });

  it("check: viewing the app's notifications with the REST key passes; a wrong key or app fails", async () => {
    await expect(provider.check(legacy(), AbortSignal.timeout(5_000))).resolves.toEqual({ ok: true });
    await expect(provider.check(current(), AbortSignal.timeout(5_000))).resolves.toEqual({ ok: true });
    await expect(provider.check({ ...legacy(), apiKey: 'wrong' }, AbortSignal.timeout(5_000))).resolves.toEqual({
      ok: false,
      message: expect.stringContaining('Access denied.'),
    });
    await expect(provider.check({ ...legacy(), applicationId: 'other' }, AbortSignal.timeout(5_000))).resolves.toEqual({
      ok: false,
      message: expect.stringContaining('app_id not found'),
    });
    expect(fake.requests.map((r) => `${r.method} ${r.path}?${r.query.toString()}`)).toContain(`GET /api/v1/notifications?app_id=${fake.appId}&limit=1`);
  });
});
