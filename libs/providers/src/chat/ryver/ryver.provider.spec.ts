import { expectNoSecrets } from '../../../../../test/fakes/chat/chat-fake-kit';
import { RyverFake } from '../../../../../test/fakes/chat/ryver.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { VendorOutcome } from '../../../../../test/fakes/vendor-fake';
import { RyverProvider } from './ryver.provider';

describe('RyverProvider against a Ryver fake', () => {
  const fake = new RyverFake();
  const provider = new RyverProvider(testRuntime());

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('posts {content}; Ryver returns no id, so the id is ours', async () => {
    const createSource = { displayName: 'Notify', avatar: 'https://example.com/a.png' };
    const result = await provider.send(
      { id: 'msg-1', content: 'Hello Ada', webhookUrl: fake.webhookUrl },
      {},
      sendContext('msg-1', { overrides: { createSource } }),
    );
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(fake.accepted[0].json()).toEqual({ content: 'Hello Ada', createSource });
    expect(result.id).toBe('msg-1');
  });

  it.each<[VendorOutcome, object]>([
    ['rate_limited', { kind: 'rate_limited', status: 429, retryAfterMs: 5_000 }],
    ['unavailable', { kind: 'retryable', status: 502 }],
    ['permanent', { kind: 'invalid_request', status: 400, message: expect.stringContaining('content is too long.') }],
    ['invalid_recipient', { kind: 'invalid_recipient', status: 404 }],
    ['auth', { kind: 'invalid_recipient', status: 403 }],
  ])('a scripted %s failure', async (outcome, expected) => {
    fake.failNext(outcome);
    const error = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: fake.webhookUrl }, {}, sendContext()));
    expect(error).toMatchObject(expected);
    expectNoSecrets(error, fake.hookPath);
  });

  it('an unknown hook is an invalid recipient; a missing URL fails before any request', async () => {
    expect(await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: fake.wrongWebhookUrl }, {}, sendContext()))).toMatchObject({
      kind: 'invalid_recipient',
      status: 404,
    });
    expect(await providerFailure(provider.send({ id: 'm', content: 'hi' }, {}, sendContext()))).toMatchObject({ kind: 'invalid_recipient' });
    expect(fake.requests).toHaveLength(1);
  });
});
