import { expectNoSecrets } from '../../../../../test/fakes/chat/chat-fake-kit';
import { ZulipFake } from '../../../../../test/fakes/chat/zulip.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { VendorOutcome } from '../../../../../test/fakes/vendor-fake';
import { ZulipProvider } from './zulip.provider';

describe('ZulipProvider against a Zulip fake', () => {
  const fake = new ZulipFake();
  const provider = new ZulipProvider(testRuntime());

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('posts {text} to the Slack-compatible hook, keeping its api_key and stream; the id is ours', async () => {
    const result = await provider.send({ id: 'msg-1', content: 'Hello Ada', webhookUrl: fake.webhookUrl() }, {}, sendContext());
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(fake.accepted[0].json()).toEqual({ text: 'Hello Ada' });
    expect(fake.accepted[0].query.get('stream')).toBe('alerts');
    expect(result.id).toBe('msg-1');
  });

  it.each<[VendorOutcome, object]>([
    ['rate_limited', { kind: 'rate_limited', status: 429, retryAfterMs: 2_500, providerCode: 'RATE_LIMIT_HIT' }],
    ['unavailable', { kind: 'retryable', status: 502 }],
    ['permanent', { kind: 'invalid_request', status: 400, providerCode: 'BAD_REQUEST' }],
    ['invalid_recipient', { kind: 'invalid_recipient', status: 400, providerCode: 'STREAM_DOES_NOT_EXIST' }],
    ['auth', { kind: 'invalid_recipient', status: 401, providerCode: 'USER_DEACTIVATED' }],
  ])('a scripted %s failure', async (outcome, expected) => {
    fake.failNext(outcome);
    const error = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: fake.webhookUrl() }, {}, sendContext()));
    expect(error).toMatchObject(expected);
    expectNoSecrets(error, fake.botApiKey);
  });

  it('a wrong bot key or an unknown stream in the URL is an invalid recipient, never shown', async () => {
    const key = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: fake.webhookUrl('alerts', 'wrong-key-123') }, {}, sendContext()));
    expect(key).toMatchObject({ kind: 'invalid_recipient', status: 401, providerCode: 'INVALID_API_KEY' });
    expectNoSecrets(key, 'wrong-key-123');
    const stream = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: fake.webhookUrl('gone') }, {}, sendContext()));
    expect(stream).toMatchObject({ kind: 'invalid_recipient', providerCode: 'STREAM_DOES_NOT_EXIST' });
  });

  it('a missing webhook URL fails before any request', async () => {
    expect(await providerFailure(provider.send({ id: 'm', content: 'hi' }, {}, sendContext()))).toMatchObject({ kind: 'invalid_recipient' });
    expect(fake.requests).toHaveLength(0);
  });
});
