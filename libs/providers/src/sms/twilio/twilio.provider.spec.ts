import { describeSmsContract, SMS, withCannedAnswer } from '../../../../../test/fakes/sms/sms-contract';
import { TwilioFake } from '../../../../../test/fakes/sms/twilio.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { TWILIO_CREDENTIALS, TwilioProvider } from './twilio.provider';

describe('TwilioProvider against a Twilio fake', () => {
  const fake = new TwilioFake();
  const provider = new TwilioProvider(testRuntime());
  const credentials = () => ({ accountSid: fake.accountSid, token: fake.token, from: '+15550001111', baseUrl: fake.origin });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('sends one Messages.json form Twilio accepts; id and date come from sid and date_created', async () => {
    const result = await provider.send(SMS, credentials(), sendContext('msg-1', { overrides: { statusCallback: 'https://hooks.example.com/twilio' } }));
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(Object.fromEntries(fake.accepted[0].form())).toEqual({
      To: '+15551234567',
      From: '+15550001111',
      Body: 'Your code is 1234',
      StatusCallback: 'https://hooks.example.com/twilio',
    });
    expect(result.id).toMatch(/^SM[0-9a-f]{32}$/);
    expect(Math.abs(Date.parse(result.date) - Date.now())).toBeLessThan(5_000);
    expect(result.raw).toEqual({ status: 201, messageStatus: 'queued' });
  });

  it("the message's from wins over the integration's; passthrough reaches the form", async () => {
    await provider.send({ ...SMS, from: 'ACME' }, credentials(), sendContext('m', { passthrough: { body: { ValidityPeriod: '600' } } }));
    expect(fake.accepted[0].form().get('From')).toBe('ACME');
    expect(fake.accepted[0].form().get('ValidityPeriod')).toBe('600');
  });

  it("an invalid 'To' refused by Twilio's own validation is invalid_recipient with Twilio's words", async () => {
    const error = await providerFailure(provider.send({ ...SMS, to: '12' }, credentials(), sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_recipient', status: 400, providerCode: '21211' });
    expect(error.message).toContain("The 'To' number 12 is not a valid phone number. (code 21211)");
  });

  it('check fails for a suspended account', async () => {
    const verdict = await withCannedAnswer({ status: 200, body: { sid: fake.accountSid, status: 'suspended' } }, (origin) =>
      provider.check({ ...credentials(), baseUrl: origin }, AbortSignal.timeout(5_000)),
    );
    expect(verdict).toEqual({ ok: false, message: 'The Twilio account is suspended' });
  });

  describeSmsContract({
    providerId: 'twilio',
    schema: TWILIO_CREDENTIALS,
    fake,
    createProvider: (runtime) => new TwilioProvider(runtime),
    credentials,
    wrongCredentials: { credentials: () => ({ ...credentials(), token: 'wrong' }), refusal: 'bad basic credentials' },
    outcomes: {
      rate_limited: { kind: 'rate_limited', status: 429, providerCode: '20429', retryAfterMs: 2_000 },
      unavailable: { kind: 'retryable', status: 503 },
      auth: { kind: 'auth', status: 401, providerCode: '20003' },
      invalid_recipient: { kind: 'invalid_recipient', status: 400, providerCode: '21614' },
      permanent: { kind: 'permanent', status: 400, providerCode: '21408' },
    },
    check: { failure: 'Authenticate' },
  });
});
