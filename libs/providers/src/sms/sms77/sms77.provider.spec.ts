import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { describeSmsContract, SMS, withCannedAnswer } from '../../../../../test/fakes/sms/sms-contract';
import { Sms77Fake } from '../../../../../test/fakes/sms/sms77.fake';
import { SMS77_CREDENTIALS, Sms77Provider } from './sms77.provider';

describe('Sms77Provider against a seven.io fake', () => {
  const fake = new Sms77Fake();
  const provider = new Sms77Provider(testRuntime());
  const credentials = () => ({ apiKey: fake.apiKey, from: 'ACME', baseUrl: fake.origin });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('sends one SMS seven.io accepts, our id as foreign_id; the id is messages[0].id', async () => {
    const result = await provider.send(SMS, credentials(), sendContext('msg-1', { overrides: { label: 'otp' } }));
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(Object.fromEntries(fake.accepted[0].form())).toEqual({
      to: '+15551234567',
      text: 'Your code is 1234',
      from: 'ACME',
      json: '1',
      foreign_id: 'msg-1',
      label: 'otp',
    });
    expect(result).toMatchObject({ id: expect.stringMatching(/^\d{11}$/), raw: { status: 200, success: '100' } });
  });

  it("the message's from wins; passthrough reaches the form; an id seven cannot echo is left out", async () => {
    await provider.send(
      { ...SMS, from: '+15550001111' },
      credentials(),
      sendContext('id with spaces', { passthrough: { body: { performance_tracking: '1' } } }),
    );
    const form = fake.accepted[0].form();
    expect(form.get('from')).toBe('+15550001111');
    expect(form.get('performance_tracking')).toBe('1');
    expect(form.has('foreign_id')).toBe(false);
  });

  it('a recipient seven.io refuses (HTTP 200, code 202) is invalid_recipient', async () => {
    const error = await providerFailure(provider.send({ ...SMS, to: 'abc' }, credentials(), sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_recipient', status: 200, providerCode: '202', target: 'abc' });
    expect(error.message).toBe('seven.io refused the message (code 202): invalid recipient number');
  });

  it('keeps the message id as text when seven writes it as a number (delivery reports find the message by it)', async () => {
    const answer = { status: 200, body: { success: '100', messages: [{ id: 77229318321, success: true }] } };
    const result = await withCannedAnswer(answer, (origin) => provider.send(SMS, { ...credentials(), baseUrl: origin }, sendContext()));
    expect(result.id).toBe('77229318321');
  });

  it('a JSON answer whose message failed carries the per-message error', async () => {
    const answer = { status: 200, body: { success: '101', messages: [{ id: null, success: false, error: '202', error_text: 'Invalid recipient' }] } };
    const error = await withCannedAnswer(answer, (origin) => providerFailure(provider.send(SMS, { ...credentials(), baseUrl: origin }, sendContext())));
    expect(error).toMatchObject({ kind: 'invalid_recipient', providerCode: '202', message: 'seven.io refused the message (code 202): Invalid recipient' });
  });

  describeSmsContract({
    providerId: 'sms77',
    schema: SMS77_CREDENTIALS,
    fake,
    createProvider: (runtime) => new Sms77Provider(runtime),
    credentials,
    wrongCredentials: { credentials: () => ({ ...credentials(), apiKey: 'wrong' }), refusal: 'bad api key' },
    outcomes: {
      rate_limited: { kind: 'rate_limited', status: 200, providerCode: '402', retryAfterMs: 180_000 },
      unavailable: { kind: 'retryable', status: 502 },
      auth: { kind: 'auth', status: 200, providerCode: '900' },
      invalid_recipient: { kind: 'invalid_recipient', status: 200, providerCode: '202' },
      permanent: { kind: 'permanent', status: 200, providerCode: '500' },
    },
    check: { failure: 'seven.io refused the request (code 900): authentication failed: check the API key' },
  });
});
