import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { describeSmsContract, SMS, withCannedAnswer } from '../../../../../test/fakes/sms/sms-contract';
import { SnsFake } from '../../../../../test/fakes/sms/sns.fake';
import { SNS_CREDENTIALS, SnsProvider } from './sns.provider';

describe('SnsProvider against an SNS fake (AWS Query protocol, SigV4 recomputed)', () => {
  const fake = new SnsFake();
  const provider = new SnsProvider(testRuntime());
  const credentials = () => ({ apiKey: fake.accessKeyId, secretKey: fake.secretAccessKey, region: fake.region, baseUrl: fake.origin });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('publishes once to the phone number, correctly signed; the id is MessageId', async () => {
    const result = await provider.send(SMS, credentials(), sendContext());
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    const form = Object.fromEntries(fake.accepted[0].form());
    expect(form).toEqual({ Action: 'Publish', Version: '2010-03-31', PhoneNumber: '+15551234567', Message: 'Your code is 1234' });
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.raw).toMatchObject({ status: 200 });
  });

  it.each([
    ['ACME', 'AWS.SNS.SMS.SenderID'],
    ['+15550001111', 'AWS.MM.SMS.OriginationNumber'],
  ])('a sender %s goes as the %s attribute, with the smsType override', async (from, attribute) => {
    await provider.send({ ...SMS, from }, credentials(), sendContext('m', { overrides: { smsType: 'Transactional' } }));
    expect(SnsFake.messageAttributes(fake.accepted[0])).toEqual({ [attribute]: from, 'AWS.SNS.SMS.SMSType': 'Transactional' });
  });

  it("the integration's from is the sender when the message has none", async () => {
    await provider.send(SMS, { ...credentials(), from: 'ACME' }, sendContext());
    expect(SnsFake.messageAttributes(fake.accepted[0])).toEqual({ 'AWS.SNS.SMS.SenderID': 'ACME' });
  });

  it('a phone number SNS refuses is invalid_recipient with the SNS code and words', async () => {
    const error = await providerFailure(provider.send({ ...SMS, to: '+12' }, credentials(), sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_recipient', status: 400, providerCode: 'InvalidParameter' });
    expect(error.message).toBe('SNS refused the request (InvalidParameter, HTTP 400): Invalid parameter: PhoneNumber Reason: +12 is not valid to publish to');
  });

  it('a wrong access key id is refused as InvalidClientTokenId (auth), never retried by the SDK', async () => {
    const error = await providerFailure(provider.send(SMS, { ...credentials(), apiKey: 'AKIAUNKNOWN000000000' }, sendContext()));
    expect(error).toMatchObject({ kind: 'auth', status: 403, providerCode: 'InvalidClientTokenId' });
    expect(fake.requests).toHaveLength(1);
  });

  it('an endpoint that never answers times out as a retryable failure', async () => {
    const impatient = new SnsProvider(testRuntime(300));
    const error = await withCannedAnswer({ status: 0 }, (origin) => providerFailure(impatient.send(SMS, { ...credentials(), baseUrl: origin }, sendContext())));
    expect(error.kind).toBe('retryable');
  });

  it('secrets stay out of the error', async () => {
    const error = await providerFailure(provider.send(SMS, { ...credentials(), secretKey: 'not-the-secret' }, sendContext()));
    expect(JSON.stringify({ message: error.message, raw: error.raw })).not.toMatch(/not-the-secret|fake-sns-secret/);
  });

  describeSmsContract({
    providerId: 'sns',
    schema: SNS_CREDENTIALS,
    fake,
    createProvider: (runtime) => new SnsProvider(runtime),
    credentials,
    wrongCredentials: { credentials: () => ({ ...credentials(), secretKey: 'wrong-secret' }), refusal: 'SigV4: signature mismatch' },
    outcomes: {
      // SNS gives no wait with Throttling: the queue's backoff decides.
      rate_limited: { kind: 'rate_limited', status: 400, providerCode: 'Throttling', retryAfterMs: undefined },
      unavailable: { kind: 'retryable', status: 500, providerCode: 'InternalError' },
      auth: { kind: 'auth', status: 403, providerCode: 'InvalidClientTokenId' },
      invalid_recipient: { kind: 'invalid_recipient', status: 400, providerCode: 'InvalidParameter' },
      permanent: { kind: 'invalid_request', status: 400, providerCode: 'InvalidParameter' },
    },
    check: { failure: 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.' },
  });
});
