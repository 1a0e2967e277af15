import { expectNoSecrets } from '../../../../../test/fakes/chat/chat-fake-kit';
import { GrafanaOnCallFake } from '../../../../../test/fakes/chat/grafana-on-call.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { VendorOutcome } from '../../../../../test/fakes/vendor-fake';
import { GrafanaOnCallProvider } from './grafana-on-call.provider';

describe('GrafanaOnCallProvider against a Grafana OnCall fake', () => {
  const fake = new GrafanaOnCallFake();
  const provider = new GrafanaOnCallProvider(testRuntime());
  const integration = {
    alertUid: 'uid-integration',
    title: 'Integration title',
    imageUrl: 'https://example.com/i.png',
    state: 'ok',
    externalLink: 'https://example.com/runbook',
  };

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it("posts the formatted alert: subscriber fields first, then the integration's; the id is ours", async () => {
    const result = await provider.send(
      {
        id: 'msg-1',
        content: 'Disk full',
        webhookUrl: fake.webhookUrl,
        recipient: { alertUid: 'uid-subscriber', state: 'alerting', externalUrl: 'https://example.com/dash', title: '' },
      },
      integration,
      sendContext(),
    );
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(fake.accepted[0].json()).toEqual({
      alert_uid: 'uid-subscriber',
      title: 'Integration title',
      image_url: 'https://example.com/i.png',
      state: 'alerting',
      link_to_upstream_details: 'https://example.com/dash',
      message: 'Disk full',
    });
    expect(result.id).toBe('msg-1');
  });

  it('sends only the message when nothing else is configured', async () => {
    await provider.send({ id: 'msg-1', content: 'Disk full', webhookUrl: fake.webhookUrl }, {}, sendContext());
    expect(fake.accepted[0].json()).toEqual({ message: 'Disk full' });
  });

  it.each<[VendorOutcome, object]>([
    ['rate_limited', { kind: 'rate_limited', status: 429, retryAfterMs: 60_000 }],
    ['unavailable', { kind: 'retryable', status: 503 }],
    ['permanent', { kind: 'invalid_request', status: 400 }],
    ['invalid_recipient', { kind: 'invalid_recipient', status: 404 }],
    ['auth', { kind: 'invalid_recipient', status: 403 }],
  ])('a scripted %s failure', async (outcome, expected) => {
    fake.failNext(outcome);
    const error = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: fake.webhookUrl }, integration, sendContext()));
    expect(error).toMatchObject(expected);
    expectNoSecrets(error, fake.hookPath);
  });

  it('a state Grafana does not know is refused by it as an invalid request', async () => {
    const error = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: fake.webhookUrl }, { state: 'firing' }, sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, message: expect.stringContaining('not a valid choice') });
  });

  it('an unknown integration token is an invalid recipient; a missing URL fails before any request', async () => {
    expect(await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: fake.wrongWebhookUrl }, {}, sendContext()))).toMatchObject({
      kind: 'invalid_recipient',
      status: 403,
    });
    expect(await providerFailure(provider.send({ id: 'm', content: 'hi' }, {}, sendContext()))).toMatchObject({ kind: 'invalid_recipient' });
    expect(fake.requests).toHaveLength(1);
  });
});
