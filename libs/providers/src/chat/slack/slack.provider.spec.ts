import { ChatMessage } from '@app/delivery';
import { expectNoSecrets } from '../../../../../test/fakes/chat/chat-fake-kit';
import { SlackFake } from '../../../../../test/fakes/chat/slack.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { VendorOutcome } from '../../../../../test/fakes/vendor-fake';
import { createProviderRuntime } from '../../provider-runtime';
import { LoopbackReceiver } from '../../testing/loopback-receiver';
import { SlackProvider } from './slack.provider';

const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*Hello*' } }];

describe('SlackProvider against a Slack fake', () => {
  const fake = new SlackFake();
  const provider = new SlackProvider(testRuntime());
  const hookMessage = (): ChatMessage => ({ id: 'msg-1', content: 'Hello Ada', webhookUrl: fake.webhookUrl });
  const botMessage = (channel = fake.channels[0]): ChatMessage => ({ id: 'msg-1', content: 'Hello Ada', channel });
  const bot = () => ({ apiToken: fake.botToken, baseUrl: fake.origin });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  describe('incoming webhook', () => {
    it('posts {text, blocks, …} to the hook, customData last, and takes the id from x-slack-req-id', async () => {
      const result = await provider.send(
        { ...hookMessage(), customData: { unfurl_links: false } },
        {},
        sendContext('msg-1', { overrides: { blocks, thread_ts: '1.2', ignored: true }, passthrough: { headers: { 'x-extra': '1' } } }),
      );
      expect(fake.refusals).toEqual([]);
      expect(fake.accepted).toHaveLength(1);
      expect(fake.accepted[0].json()).toEqual({ text: 'Hello Ada', blocks, thread_ts: '1.2', unfurl_links: false });
      expect(fake.accepted[0].header('x-extra')).toBe('1');
      expect(result.id).toMatch(/^[0-9a-f]{32}$/);
      expect(Date.parse(result.date)).not.toBeNaN();
    });

    it.each<[VendorOutcome, object]>([
      ['rate_limited', { kind: 'rate_limited', status: 429, retryAfterMs: 30_000 }],
      ['unavailable', { kind: 'retryable', status: 500, providerCode: 'rollup_error' }],
      ['permanent', { kind: 'permanent', status: 403, providerCode: 'action_prohibited' }],
      ['invalid_recipient', { kind: 'invalid_recipient', status: 410, providerCode: 'channel_is_archived' }],
      ['auth', { kind: 'invalid_recipient', status: 403, providerCode: 'invalid_token' }],
    ])('a scripted %s failure', async (outcome, expected) => {
      fake.failNext(outcome);
      const error = await providerFailure(provider.send(hookMessage(), {}, sendContext()));
      expect(error).toMatchObject(expected);
      expectNoSecrets(error, fake.hookPath);
    });

    it('a revoked hook (no_service) is an invalid recipient, and the error never shows the URL', async () => {
      const error = await providerFailure(provider.send({ ...hookMessage(), webhookUrl: fake.wrongWebhookUrl }, {}, sendContext()));
      expect(error).toMatchObject({ kind: 'invalid_recipient', status: 404, providerCode: 'no_service' });
      expect(error.message).toContain('no_service');
      expectNoSecrets(error, fake.wrongWebhookUrl, '/services/');
    });

    it('a 200 that is not "ok" is a failure', async () => {
      const receiver = await LoopbackReceiver.start();
      try {
        receiver.respond((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>'));
        const error = await providerFailure(provider.send({ ...hookMessage(), webhookUrl: receiver.url('/services/x') }, {}, sendContext()));
        expect(error).toMatchObject({ kind: 'permanent', status: 200 });
      } finally {
        await receiver.close();
      }
    });

    it('a missing or malformed webhook URL is an invalid recipient, before any request and without echoing it', async () => {
      expect(await providerFailure(provider.send({ id: 'm', content: 'hi' }, {}, sendContext()))).toMatchObject({ kind: 'invalid_recipient' });
      const malformed = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: 'hooks.slack.com/services/T/B/secret' }, {}, sendContext()));
      expect(malformed.kind).toBe('invalid_recipient');
      expectNoSecrets(malformed, 'secret');
      const noBot = await providerFailure(provider.send(botMessage(), {}, sendContext()));
      expect(noBot.kind).toBe('invalid_recipient');
      expect(noBot.message).toContain('apiToken');
      expect(fake.requests).toHaveLength(0);
    });

    it('refuses a loopback hook unless the deployment allows private targets', async () => {
      const strict = new SlackProvider(createProviderRuntime({ allowPrivateNetworkTargets: false }));
      const error = await providerFailure(strict.send(hookMessage(), {}, sendContext()));
      expect(error.kind).toBe('invalid_request');
      expectNoSecrets(error, fake.hookPath);
      expect(fake.requests).toHaveLength(0);
    });
  });

  describe('bot token (chat.postMessage)', () => {
    it('posts {channel, text, blocks} with the bot token to baseUrl, and the id is the message ts', async () => {
      const result = await provider.send({ ...botMessage(), webhookUrl: fake.webhookUrl }, bot(), sendContext('msg-1', { overrides: { blocks } }));
      expect(fake.refusals).toEqual([]);
      expect(fake.accepted).toHaveLength(1);
      const request = fake.accepted[0];
      expect(request.path).toBe('/api/chat.postMessage');
      expect(request.header('content-type')).toBe('application/json; charset=utf-8');
      expect(request.json()).toEqual({ channel: fake.channels[0], text: 'Hello Ada', blocks });
      expect(result.id).toMatch(/^\d+\.\d{6}$/);
      expect(Math.abs(Date.parse(result.date) - Date.now())).toBeLessThan(5_000);
    });

    it.each<[VendorOutcome, object]>([
      ['rate_limited', { kind: 'rate_limited', status: 429, retryAfterMs: 30_000, providerCode: 'ratelimited' }],
      ['unavailable', { kind: 'retryable', status: 200, providerCode: 'internal_error' }],
      ['permanent', { kind: 'invalid_request', status: 200, providerCode: 'msg_too_long' }],
      ['invalid_recipient', { kind: 'invalid_recipient', status: 200, providerCode: 'is_archived' }],
      ['auth', { kind: 'auth', status: 200, providerCode: 'token_revoked' }],
    ])('a scripted %s failure', async (outcome, expected) => {
      fake.failNext(outcome);
      const error = await providerFailure(provider.send(botMessage(), bot(), sendContext()));
      expect(error).toMatchObject(expected);
      expectNoSecrets(error, fake.botToken);
    });

    it('maps what the fake refuses as Slack would: a wrong token, an unknown channel, a channel the bot has not joined', async () => {
      const wrongToken = await providerFailure(provider.send(botMessage(), { ...bot(), apiToken: 'xoxb-wrong' }, sendContext()));
      expect(wrongToken).toMatchObject({ kind: 'auth', providerCode: 'invalid_auth' });
      expect(await providerFailure(provider.send(botMessage('C0GONE'), bot(), sendContext()))).toMatchObject({
        kind: 'invalid_recipient',
        providerCode: 'channel_not_found',
      });
      expect(await providerFailure(provider.send(botMessage(fake.otherChannels[0]), bot(), sendContext()))).toMatchObject({
        kind: 'invalid_recipient',
        providerCode: 'not_in_channel',
      });
      expect(fake.refusals.map((r) => r.reason)).toEqual(['bad bearer token', 'unknown channel C0GONE', `not in ${fake.otherChannels[0]}`]);
      const badBaseUrl = await providerFailure(provider.send(botMessage(), { ...bot(), baseUrl: 'ftp://slack.example' }, sendContext()));
      expect(badBaseUrl).toMatchObject({ kind: 'invalid_request', message: 'The slack integration credentials.baseUrl must be an http(s) URL' });
      expect(fake.requests).toHaveLength(3);
    });

    it("check: auth.test passes with the bot token and fails with Slack's code; webhook mode has nothing to check", async () => {
      await expect(provider.check(bot(), AbortSignal.timeout(5_000))).resolves.toEqual({ ok: true });
      await expect(provider.check({ ...bot(), apiToken: 'xoxb-wrong' }, AbortSignal.timeout(5_000))).resolves.toEqual({
        ok: false,
        message: 'Slack refused the token: invalid_auth',
      });
      await expect(provider.check({}, AbortSignal.timeout(5_000))).resolves.toEqual({ ok: true });
      expect(fake.requests.map((r) => r.path)).toEqual(['/api/auth.test', '/api/auth.test']);
    });
  });

  it.each(['service-slack', 'novu-slack'] as const)('%s behaves as slack', async (id) => {
    const alias = new SlackProvider(testRuntime(), id);
    expect(alias.id).toBe(id);
    await alias.send(hookMessage(), {}, sendContext());
    await alias.send(botMessage(), bot(), sendContext());
    expect(fake.accepted.map((r) => r.path)).toEqual([fake.hookPath, '/api/chat.postMessage']);
  });
});
