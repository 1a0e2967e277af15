import { sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { PlivoFake } from '../../../../../test/fakes/sms/plivo.fake';
import { describeSmsContract, SMS } from '../../../../../test/fakes/sms/sms-contract';
import { PLIVO_CREDENTIALS, PlivoProvider } from './plivo.provider';

describe('PlivoProvider against a Plivo fake', () => {
  const fake = new PlivoFake();
  const provider = new PlivoProvider(testRuntime());
  const credentials = () => ({ accountSid: fake.authId, token: fake.authToken, from: '+15550001111', baseUrl: fake.origin });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('sends one Message request Plivo accepts; the id is the first message_uuid', async () => {
    const result = await provider.send(SMS, credentials(), sendContext('msg-1', { overrides: { statusCallback: 'https://hooks.example.com/plivo' } }));
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(fake.accepted[0].json()).toEqual({ src: '+15550001111', dst: '+15551234567', text: 'Your code is 1234', url: 'https://hooks.example.com/plivo' });
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.raw).toEqual({ status: 202, message_uuid: [result.id] });
  });

  it("the message's from wins; passthrough reaches the body", async () => {
    await provider.send({ ...SMS, from: '+15559990000' }, credentials(), sendContext('m', { passthrough: { body: { log: false } } }));
    expect(fake.accepted[0].json()).toMatchObject({ src: '+15559990000', log: false });
  });

  describeSmsContract({
    providerId: 'plivo',
    schema: PLIVO_CREDENTIALS,
    fake,
    createProvider: (runtime) => new PlivoProvider(runtime),
    credentials,
    wrongCredentials: { credentials: () => ({ ...credentials(), token: 'wrong' }), refusal: 'bad basic credentials' },
    outcomes: {
      rate_limited: { kind: 'rate_limited', status: 429, retryAfterMs: 3_000 },
      unavailable: { kind: 'retryable', status: 500 },
      auth: { kind: 'auth', status: 401, message: 'Provider refused the credentials (HTTP 401): Authentication credentials invalid' },
      invalid_recipient: { kind: 'invalid_recipient', status: 400, message: 'Provider rejected the request (HTTP 400): dst parameter is invalid' },
      permanent: { kind: 'permanent', status: 402 },
    },
    check: { failure: 'Authentication credentials invalid' },
  });
});
