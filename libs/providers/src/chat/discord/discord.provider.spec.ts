import { ChatMessage } from '@app/delivery';
import { expectNoSecrets } from '../../../../../test/fakes/chat/chat-fake-kit';
import { DiscordFake } from '../../../../../test/fakes/chat/discord.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { VendorOutcome } from '../../../../../test/fakes/vendor-fake';
import { DiscordProvider } from './discord.provider';

describe('DiscordProvider against a Discord fake', () => {
  const fake = new DiscordFake();
  const provider = new DiscordProvider(testRuntime());
  const message = (): ChatMessage => ({ id: 'msg-1', content: 'Hello Ada', webhookUrl: fake.webhookUrl });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('executes the webhook with wait=true and takes id and timestamp from the created message', async () => {
    const embeds = [{ title: 'Deploy', description: 'done' }];
    const result = await provider.send(
      { ...message(), customData: { tts: false } },
      {},
      sendContext('msg-1', { overrides: { embeds, username: 'Notifier', thread_id: '42', webhookUrl: 'http://ignored' } }),
    );
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    const request = fake.accepted[0];
    expect(request.query.get('wait')).toBe('true');
    expect(request.query.get('thread_id')).toBe('42');
    expect(request.json()).toEqual({ content: 'Hello Ada', embeds, username: 'Notifier', tts: false });
    expect(result.id).toMatch(/^\d{17,20}$/);
    expect(Math.abs(Date.parse(result.date) - Date.now())).toBeLessThan(5_000);
  });

  it.each<[VendorOutcome, object]>([
    ['rate_limited', { kind: 'rate_limited', status: 429, retryAfterMs: 1_234 }],
    ['unavailable', { kind: 'retryable', status: 503 }],
    ['permanent', { kind: 'permanent', status: 403, providerCode: '50013' }],
    ['invalid_recipient', { kind: 'invalid_recipient', status: 404, providerCode: '10015' }],
    ['auth', { kind: 'invalid_recipient', status: 401, providerCode: '50027' }],
  ])('a scripted %s failure', async (outcome, expected) => {
    fake.failNext(outcome);
    const error = await providerFailure(provider.send(message(), {}, sendContext()));
    expect(error).toMatchObject(expected);
    expectNoSecrets(error, fake.webhookToken);
  });

  it('a deleted webhook or a wrong token is an invalid recipient, without showing the URL', async () => {
    const wrongToken = await providerFailure(provider.send({ ...message(), webhookUrl: fake.wrongWebhookUrl }, {}, sendContext()));
    expect(wrongToken).toMatchObject({ kind: 'invalid_recipient', status: 401, message: expect.stringContaining('Invalid Webhook Token') });
    expectNoSecrets(wrongToken, fake.wrongWebhookUrl);
    const deleted = await providerFailure(provider.send({ ...message(), webhookUrl: `${fake.origin}/api/webhooks/1/abc` }, {}, sendContext()));
    expect(deleted).toMatchObject({ kind: 'invalid_recipient', status: 404, providerCode: '10015' });
  });

  it("a body Discord refuses is an invalid request carrying Discord's field errors", async () => {
    const error = await providerFailure(provider.send({ ...message(), content: 'x'.repeat(2001) }, {}, sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, providerCode: '50035' });
    expect(error.message).toContain('Must be 2000 or fewer in length.');
  });

  it('a missing webhook URL fails before any request', async () => {
    expect(await providerFailure(provider.send({ id: 'm', content: 'hi' }, {}, sendContext()))).toMatchObject({ kind: 'invalid_recipient' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('DiscordProvider over HTTPS', () => {
  const fake = new DiscordFake();
  beforeAll(() => fake.start('https'));
  afterAll(() => fake.close());

  it('trusts the runtime CA for an https webhook', async () => {
    const result = await new DiscordProvider(testRuntime()).send({ id: 'm', content: 'Hello', webhookUrl: fake.webhookUrl }, {}, sendContext());
    expect(fake.accepted).toHaveLength(1);
    expect(result.id).toMatch(/^\d+$/);
  });
});
