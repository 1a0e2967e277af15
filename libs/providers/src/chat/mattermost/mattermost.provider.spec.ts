import { expectNoSecrets } from '../../../../../test/fakes/chat/chat-fake-kit';
import { MattermostFake } from '../../../../../test/fakes/chat/mattermost.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { VendorOutcome } from '../../../../../test/fakes/vendor-fake';
import { MattermostProvider } from './mattermost.provider';

describe('MattermostProvider against a Mattermost fake', () => {
  const fake = new MattermostFake();
  const provider = new MattermostProvider(testRuntime());

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('posts {text, channel} and takes the id from X-Request-Id and the date from Date', async () => {
    const result = await provider.send(
      { id: 'msg-1', content: 'Hello Ada', webhookUrl: fake.webhookUrl, channel: 'alerts' },
      {},
      sendContext('msg-1', { overrides: { username: 'notify', props: { card: 'details' }, blocks: ['ignored'] } }),
    );
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(fake.accepted[0].json()).toEqual({ text: 'Hello Ada', channel: 'alerts', username: 'notify', props: { card: 'details' } });
    expect(result.id).toMatch(/^[0-9a-f]{26}$/);
    expect(Math.abs(Date.parse(result.date) - Date.now())).toBeLessThan(5_000);
  });

  it('leaves channel out when the subscriber has none', async () => {
    await provider.send({ id: 'msg-1', content: 'Hello', webhookUrl: fake.webhookUrl }, {}, sendContext());
    expect(fake.accepted[0].json()).toEqual({ text: 'Hello' });
  });

  it.each<[VendorOutcome, object]>([
    ['rate_limited', { kind: 'rate_limited', status: 429, retryAfterMs: 3_000 }],
    ['unavailable', { kind: 'retryable', status: 503 }],
    ['permanent', { kind: 'permanent', status: 501, providerCode: 'web.incoming_webhook.disabled.app_error' }],
    ['invalid_recipient', { kind: 'invalid_recipient', status: 400, providerCode: 'web.incoming_webhook.invalid.app_error' }],
    ['auth', { kind: 'invalid_recipient', status: 403 }],
  ])('a scripted %s failure', async (outcome, expected) => {
    fake.failNext(outcome);
    const error = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: fake.webhookUrl }, {}, sendContext()));
    expect(error).toMatchObject(expected);
    expectNoSecrets(error, fake.hookPath);
  });

  it("an unknown hook or channel is an invalid recipient carrying Mattermost's message", async () => {
    const hook = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: fake.wrongWebhookUrl }, {}, sendContext()));
    expect(hook).toMatchObject({ kind: 'invalid_recipient', message: expect.stringContaining('Invalid webhook.') });
    const channel = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: fake.webhookUrl, channel: 'gone' }, {}, sendContext()));
    expect(channel).toMatchObject({ kind: 'invalid_recipient', providerCode: 'web.incoming_webhook.channel.app_error' });
    expect(fake.refusals.map((r) => r.reason)).toEqual(['unknown hook', 'unknown channel gone']);
  });

  it('a missing webhook URL fails before any request', async () => {
    expect(await providerFailure(provider.send({ id: 'm', content: 'hi' }, {}, sendContext()))).toMatchObject({ kind: 'invalid_recipient' });
    expect(fake.requests).toHaveLength(0);
  });
});
