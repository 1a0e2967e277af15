import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { MessagebirdFake } from '../../../../../test/fakes/sms/messagebird.fake';
import { describeSmsContract, SMS } from '../../../../../test/fakes/sms/sms-contract';
import { MESSAGEBIRD_CREDENTIALS, MessagebirdProvider } from './messagebird.provider';

describe('MessagebirdProvider against a MessageBird fake', () => {
  const fake = new MessagebirdFake();
  const provider = new MessagebirdProvider(testRuntime());
  const credentials = () => ({ accessKey: fake.accessKey, from: 'ACME', baseUrl: fake.origin });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('sends one message MessageBird accepts, our id as reference; id and date from the answer', async () => {
    const result = await provider.send(
      SMS,
      credentials(),
      sendContext('msg-1', { overrides: { statusCallback: 'https://hooks.example.com/bird', validity: '3600' } }),
    );
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(fake.accepted[0].json()).toEqual({
      originator: 'ACME',
      recipients: ['15551234567'],
      body: 'Your code is 1234',
      reference: 'msg-1',
      reportUrl: 'https://hooks.example.com/bird',
      validity: 3600,
    });
    expect(result.id).toMatch(/^[0-9a-f]{32}$/);
    expect(Math.abs(Date.parse(result.date) - Date.now())).toBeLessThan(5_000);
  });

  it("the message's from wins; passthrough reaches the body", async () => {
    await provider.send({ ...SMS, from: '+15550001111' }, credentials(), sendContext('m', { passthrough: { body: { gateway: 10 } } }));
    expect(fake.accepted[0].json()).toMatchObject({ originator: '+15550001111', gateway: 10 });
  });

  it("recipients MessageBird's validation refuses are invalid_recipient with its words", async () => {
    const error = await providerFailure(provider.send({ ...SMS, to: 'not-a-number' }, credentials(), sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_recipient', status: 422, providerCode: '9' });
    expect(error.message).toContain('no (correct) recipients found (code 9)');
  });

  describeSmsContract({
    providerId: 'messagebird',
    schema: MESSAGEBIRD_CREDENTIALS,
    fake,
    createProvider: (runtime) => new MessagebirdProvider(runtime),
    credentials,
    wrongCredentials: { credentials: () => ({ ...credentials(), accessKey: 'live_wrong' }), refusal: 'bad access key' },
    outcomes: {
      rate_limited: { kind: 'rate_limited', status: 429, retryAfterMs: 1_000 },
      unavailable: { kind: 'retryable', status: 500, providerCode: '99' },
      auth: { kind: 'auth', status: 401, providerCode: '2' },
      invalid_recipient: { kind: 'invalid_recipient', status: 422, providerCode: '9' },
      permanent: { kind: 'permanent', status: 422, providerCode: '25' },
    },
    check: { failure: 'Request not allowed (incorrect access_key)' },
  });
});
