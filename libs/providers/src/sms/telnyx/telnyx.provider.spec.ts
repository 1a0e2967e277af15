import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { describeSmsContract, SMS } from '../../../../../test/fakes/sms/sms-contract';
import { TelnyxFake } from '../../../../../test/fakes/sms/telnyx.fake';
import { TELNYX_CREDENTIALS, TelnyxProvider } from './telnyx.provider';

describe('TelnyxProvider against a Telnyx fake', () => {
  const fake = new TelnyxFake();
  const provider = new TelnyxProvider(testRuntime());
  const credentials = () => ({ apiKey: fake.apiKey, messageProfileId: fake.messagingProfileId, from: '+15550001111', baseUrl: fake.origin });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('sends one message Telnyx accepts under the profile; id and date from data', async () => {
    const result = await provider.send(SMS, credentials(), sendContext('msg-1', { overrides: { statusCallback: 'https://hooks.example.com/telnyx' } }));
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(fake.accepted[0].json()).toEqual({
      from: '+15550001111',
      to: '+15551234567',
      text: 'Your code is 1234',
      messaging_profile_id: fake.messagingProfileId,
      webhook_url: 'https://hooks.example.com/telnyx',
    });
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Math.abs(Date.parse(result.date) - Date.now())).toBeLessThan(5_000);
  });

  it("the message's from wins; passthrough reaches the body", async () => {
    await provider.send({ ...SMS, from: 'ACME' }, credentials(), sendContext('m', { passthrough: { body: { use_profile_webhooks: false } } }));
    expect(fake.accepted[0].json()).toMatchObject({ from: 'ACME', use_profile_webhooks: false });
  });

  it("an invalid 'to' refused by Telnyx is invalid_recipient with its words", async () => {
    const error = await providerFailure(provider.send({ ...SMS, to: '555' }, credentials(), sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_recipient', status: 400, providerCode: '40310' });
    expect(error.message).toContain("Invalid 'to' address: The 'to' address should be a single valid number.");
  });

  it('check fails for an unknown messaging profile', async () => {
    await expect(provider.check({ ...credentials(), messageProfileId: 'nope' }, AbortSignal.timeout(5_000))).resolves.toEqual({
      ok: false,
      message: 'Resource not found: The requested resource or URL could not be found.',
    });
  });

  describeSmsContract({
    providerId: 'telnyx',
    schema: TELNYX_CREDENTIALS,
    fake,
    createProvider: (runtime) => new TelnyxProvider(runtime),
    credentials,
    wrongCredentials: { credentials: () => ({ ...credentials(), apiKey: 'KEY_wrong' }), refusal: 'bad bearer key' },
    outcomes: {
      rate_limited: { kind: 'rate_limited', status: 429, providerCode: '10011', retryAfterMs: 2_000 },
      unavailable: { kind: 'retryable', status: 503 },
      auth: { kind: 'auth', status: 401, providerCode: '10009' },
      invalid_recipient: { kind: 'invalid_recipient', status: 400, providerCode: '40310' },
      permanent: { kind: 'invalid_request', status: 400, providerCode: '40305', retryable: false },
    },
    check: { failure: 'Authentication failed: The API key looks malformed. Check that you copied it correctly.' },
  });
});
