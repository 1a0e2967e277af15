import { expectNoSecrets } from '../../../../../test/fakes/chat/chat-fake-kit';
import { GetstreamFake } from '../../../../../test/fakes/chat/getstream.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { VendorOutcome } from '../../../../../test/fakes/vendor-fake';
import { GetstreamProvider } from './getstream.provider';

describe('GetstreamProvider against a GetStream fake', () => {
  const fake = new GetstreamFake();
  const provider = new GetstreamProvider(testRuntime());
  const credentials = () => ({ apiKey: fake.apiKey });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('posts {text} with the key in a real X-API-KEY header (not the body), id from X-Webhook-Id', async () => {
    const result = await provider.send({ id: 'msg-1', content: 'Hello Ada', webhookUrl: fake.webhookUrl }, credentials(), sendContext());
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(fake.accepted[0].json()).toEqual({ text: 'Hello Ada' });
    expect(fake.accepted[0].header('x-api-key')).toBe(fake.apiKey);
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each<[VendorOutcome, object]>([
    ['rate_limited', { kind: 'rate_limited', status: 429 }],
    ['unavailable', { kind: 'retryable', status: 503 }],
    ['permanent', { kind: 'invalid_request', status: 400, providerCode: '4' }],
    ['invalid_recipient', { kind: 'invalid_recipient', status: 404 }],
    ['auth', { kind: 'auth', status: 401 }],
  ])('a scripted %s failure', async (outcome, expected) => {
    fake.failNext(outcome);
    const error = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: fake.webhookUrl }, credentials(), sendContext()));
    expect(error).toMatchObject(expected);
    expectNoSecrets(error, fake.apiKey, fake.hookPath);
  });

  it('a 429 waits until X-RateLimit-Reset', async () => {
    fake.failNext('rate_limited');
    const error = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: fake.webhookUrl }, credentials(), sendContext()));
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(3_000);
  });

  it("a wrong key is auth (the integration's), refused by the fake as Stream would", async () => {
    const error = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: fake.webhookUrl }, { apiKey: 'wrong' }, sendContext()));
    expect(error).toMatchObject({ kind: 'auth', status: 401, message: expect.stringContaining('api_key not valid') });
    expect(fake.refusals.map((r) => r.reason)).toEqual(['wrong X-API-KEY']);
  });

  it('a missing apiKey or webhook URL fails before any request', async () => {
    const noKey = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: fake.webhookUrl }, {}, sendContext()));
    expect(noKey).toMatchObject({ kind: 'invalid_request', message: 'The getstream integration needs credentials.apiKey' });
    expect(await providerFailure(provider.send({ id: 'm', content: 'hi' }, credentials(), sendContext()))).toMatchObject({ kind: 'invalid_recipient' });
    expect(fake.requests).toHaveLength(0);
  });
});
