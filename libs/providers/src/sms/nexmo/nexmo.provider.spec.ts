import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { NexmoFake } from '../../../../../test/fakes/sms/nexmo.fake';
import { describeSmsContract, SMS, withCannedAnswer } from '../../../../../test/fakes/sms/sms-contract';
import { NEXMO_CREDENTIALS, NexmoProvider } from './nexmo.provider';

describe('NexmoProvider against a Vonage fake', () => {
  const fake = new NexmoFake();
  const provider = new NexmoProvider(testRuntime());
  const credentials = () => ({ apiKey: fake.apiKey, secretKey: fake.apiSecret, from: '+15550001111', baseUrl: fake.origin });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('sends one SMS Vonage accepts, bare digits and our id as client-ref; the id is message-id', async () => {
    const result = await provider.send(
      SMS,
      credentials(),
      sendContext('msg-1', { overrides: { statusCallback: 'https://hooks.example.com/dlr', type: 'unicode' } }),
    );
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(fake.accepted[0].json()).toEqual({
      to: '15551234567',
      from: '15550001111',
      text: 'Your code is 1234',
      'client-ref': 'msg-1',
      callback: 'https://hooks.example.com/dlr',
      type: 'unicode',
    });
    expect(result.id).toMatch(/^[0-9A-F]{16}$/);
    expect(result.raw).toEqual({ status: 200, parts: 1 });
  });

  it('an alphanumeric sender is kept as written; passthrough reaches the body', async () => {
    await provider.send({ ...SMS, from: 'ACME' }, credentials(), sendContext('m', { passthrough: { body: { ttl: 60_000 } } }));
    expect(fake.accepted[0].json()).toMatchObject({ from: 'ACME', ttl: 60_000 });
  });

  it.each([
    ['3', 'Invalid to address', 'invalid_recipient'],
    ['3', 'Invalid from param', 'invalid_request'],
    ['5', 'Internal Error', 'retryable'],
    ['7', 'Number barred', 'invalid_recipient'],
    ['8', 'Account barred', 'permanent'],
  ])('a 200 carrying status %s (%s) is %s', async (status, text, kind) => {
    const answer = { status: 200, body: { 'message-count': '1', messages: [{ status, 'error-text': text }] } };
    const error = await withCannedAnswer(answer, (origin) => providerFailure(provider.send(SMS, { ...credentials(), baseUrl: origin }, sendContext())));
    expect(error).toMatchObject({ kind, status: 200, providerCode: status, target: '+15551234567' });
    expect(error.message).toBe(`Vonage refused the message (code ${status}): ${text}`);
  });

  it('a long text split in parts fails when any part was refused', async () => {
    const answer = {
      status: 200,
      body: {
        'message-count': '2',
        messages: [
          { status: '0', 'message-id': 'A' },
          { status: '1', 'error-text': 'Throttled' },
        ],
      },
    };
    const error = await withCannedAnswer(answer, (origin) => providerFailure(provider.send(SMS, { ...credentials(), baseUrl: origin }, sendContext())));
    expect(error.kind).toBe('rate_limited');
  });

  describeSmsContract({
    providerId: 'nexmo',
    schema: NEXMO_CREDENTIALS,
    fake,
    createProvider: (runtime) => new NexmoProvider(runtime),
    credentials,
    wrongCredentials: { credentials: () => ({ ...credentials(), secretKey: 'wrong' }), refusal: 'bad basic credentials' },
    outcomes: {
      rate_limited: { kind: 'rate_limited', status: 200, providerCode: '1' },
      unavailable: { kind: 'retryable', status: 503 },
      auth: { kind: 'auth', status: 200, providerCode: '4' },
      invalid_recipient: { kind: 'invalid_recipient', status: 200, providerCode: '6' },
      permanent: { kind: 'permanent', status: 200, providerCode: '9' },
    },
    check: { failure: 'authentication failed' },
  });
});
