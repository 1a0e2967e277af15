import { describeEmailContract } from '../../../../../test/fakes/email/email-contract';
import { sampleEmail } from '../../../../../test/fakes/email/email-test-kit';
import { SesFake } from '../../../../../test/fakes/email/ses.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { hasValidSigV4 } from '../../../../../test/fakes/vendor-auth';
import { SES_CREDENTIALS, SesProvider } from './ses.provider';

const fake = new SesFake();
const credentials = () => ({
  apiKey: fake.accessKeyId,
  secretKey: fake.secretAccessKey,
  region: fake.region,
  from: 'no-reply@example.com',
  senderName: 'Example',
  baseUrl: fake.origin,
});
const provider = new SesProvider(testRuntime());

beforeAll(() => fake.start());
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe('SesProvider against an SES v2 fake', () => {
  it('sends one signed SendEmail with the whole MIME message; the id is the MessageId', async () => {
    const result = await provider.send(sampleEmail(), credentials(), sendContext('msg-1', { overrides: { configurationSetName: 'transactional' } }));
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    const [request] = fake.accepted;
    await expect(
      hasValidSigV4(request, { accessKeyId: fake.accessKeyId, secretAccessKey: fake.secretAccessKey, region: fake.region, service: 'ses' }),
    ).resolves.toBe(true);
    const { Content, ...rest } = request.json();
    expect(rest).toEqual({
      FromEmailAddress: 'no-reply@example.com',
      Destination: { ToAddresses: ['ada@example.com'], CcAddresses: ['grace@example.com'], BccAddresses: ['audit@example.com'] },
      EmailTags: [
        { Name: 'transactionId', Value: 'tx-1' },
        { Name: 'id', Value: 'msg-1' },
      ],
      ConfigurationSetName: 'transactional',
    });
    const { parsed } = await SesFake.rawEmail(request);
    expect(parsed.from).toEqual({ name: 'Example', address: 'no-reply@example.com' });
    expect(parsed.to).toEqual([{ name: '', address: 'ada@example.com' }]);
    expect(parsed.cc).toEqual([{ name: '', address: 'grace@example.com' }]);
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.replyTo).toEqual([{ name: '', address: 'support@example.com' }]);
    expect(parsed.subject).toBe('Welcome');
    expect(parsed.html).toContain('<img src="cid:logo">');
    expect(parsed.text?.trim()).toBe('Hello');
    expect(parsed.headers.find((h) => h.key === 'x-campaign')?.value).toBe('welcome');
    expect(parsed.attachments.map((a) => a.filename).sort()).toEqual(['a.txt', 'logo.png']);
    expect(Buffer.from(parsed.attachments.find((a) => a.filename === 'a.txt')!.content as ArrayBuffer).toString()).toBe('attached');
    expect(result.id).toMatch(/^0102018[0-9a-f]{32}-000000$/);
  });

  it('one attempt only: a throttled call is not retried by the SDK', async () => {
    fake.failNext('rate_limited', 'rate_limited');
    const error = await providerFailure(provider.send(sampleEmail(), credentials(), sendContext()));
    expect(error).toMatchObject({ kind: 'rate_limited', providerCode: 'TooManyRequestsException' });
    expect(fake.requests).toHaveLength(1);
  });

  it('a wrong secret fails the signature check (auth)', async () => {
    const error = await providerFailure(provider.send(sampleEmail(), { ...credentials(), secretKey: 'not-the-secret' }, sendContext()));
    expect(error).toMatchObject({ kind: 'auth', status: 403, providerCode: 'InvalidSignatureException' });
    expect(fake.refusals.map((r) => r.reason)).toEqual(['SigV4: signature mismatch']);
  });

  it('a region that is not one fails before any request', async () => {
    const error = await providerFailure(provider.send(sampleEmail(), { ...credentials(), region: 'evil.example.com/' }, sendContext()));
    expect(error.kind).toBe('invalid_request');
    expect(error.message).toContain('credentials.region must be an AWS region');
    expect(fake.requests).toHaveLength(0);
  });

  it('an SES endpoint that refuses connections is retryable', async () => {
    const error = await providerFailure(provider.send(sampleEmail(), { ...credentials(), baseUrl: 'http://127.0.0.1:1' }, sendContext()));
    expect(error.kind).toBe('retryable');
  });
});

describeEmailContract({
  providerId: 'ses',
  schema: SES_CREDENTIALS,
  fake,
  createProvider: (runtime) => new SesProvider(runtime),
  credentials,
  wrongCredentials: { credentials: () => ({ ...credentials(), apiKey: 'AKIDWRONG' }), refusal: 'SigV4: unknown access key' },
  outcomes: {
    rate_limited: { kind: 'rate_limited', status: 429 },
    unavailable: { kind: 'retryable', status: 500, providerCode: 'InternalFailure' },
    auth: { kind: 'auth', status: 403, providerCode: 'UnrecognizedClientException' },
    invalid_recipient: { kind: 'invalid_recipient', providerCode: 'MessageRejected', target: 'ada@example.com' },
    permanent: { kind: 'permanent', providerCode: 'MessageRejected', message: expect.stringContaining('no-reply@example.com') },
  },
  check: { failure: 'SES UnrecognizedClientException: The security token included in the request is invalid.' },
});
