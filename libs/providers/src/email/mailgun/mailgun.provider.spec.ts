import { describeEmailContract } from '../../../../../test/fakes/email/email-contract';
import { parseMultipart, sampleEmail } from '../../../../../test/fakes/email/email-test-kit';
import { MailgunFake } from '../../../../../test/fakes/email/mailgun.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { MAILGUN_CREDENTIALS, MailgunProvider } from './mailgun.provider';

const fake = new MailgunFake();
const credentials = () => ({ apiKey: fake.apiKey, domain: fake.domain, from: 'no-reply@example.com', senderName: 'Example', baseUrl: fake.origin });
const provider = new MailgunProvider(testRuntime());

beforeAll(() => fake.start());
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe('MailgunProvider against a Mailgun fake', () => {
  it("sends one multipart request Mailgun accepts; the id is Mailgun's message id", async () => {
    const result = await provider.send(sampleEmail(), credentials(), sendContext());
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    const parts = parseMultipart(fake.accepted[0])!;
    const fields = parts.filter((part) => part.filename === undefined).map((part) => [part.name, part.value]);
    expect(fields).toEqual([
      ['from', 'Example <no-reply@example.com>'],
      ['to', 'ada@example.com'],
      ['cc', 'grace@example.com'],
      ['bcc', 'audit@example.com'],
      ['subject', 'Welcome'],
      ['html', '<p>Hello <img src="cid:logo"></p>'],
      ['text', 'Hello'],
      ['h:Reply-To', 'support@example.com'],
      ['h:X-Campaign', 'welcome'],
      ['v:transactionId', 'tx-1'],
      ['v:id', 'msg-1'],
    ]);
    const files = parts.filter((part) => part.filename !== undefined).map((part) => [part.name, part.filename, part.contentType, part.data.toString('hex')]);
    expect(files).toEqual([
      ['attachment', 'a.txt', 'text/plain', Buffer.from('attached').toString('hex')],
      ['inline', 'logo', 'image/png', '89504e47'],
    ]);
    expect(result.id).toMatch(/^<[0-9a-f-]+@mg\.example\.com>$/);
  });

  it('the user credential replaces `api`; passthrough fields reach the form', async () => {
    await provider.send(sampleEmail(), { ...credentials(), user: 'api' }, sendContext('m', { passthrough: { body: { 'o:tag': 'digest' } } }));
    expect(parseMultipart(fake.accepted[0])!.find((part) => part.name === 'o:tag')?.value).toBe('digest');
    const error = await providerFailure(provider.send(sampleEmail(), { ...credentials(), user: 'someone' }, sendContext()));
    expect(error.kind).toBe('auth');
  });

  it('a domain the key does not know is not retried', async () => {
    const error = await providerFailure(provider.send(sampleEmail(), { ...credentials(), domain: 'other.example.com' }, sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_request', status: 404 });
    expect(error.message).toContain('Domain not found');
  });
});

describeEmailContract({
  providerId: 'mailgun',
  schema: MAILGUN_CREDENTIALS,
  fake,
  createProvider: (runtime) => new MailgunProvider(runtime),
  credentials,
  wrongCredentials: { credentials: () => ({ ...credentials(), apiKey: 'key-wrong' }), refusal: 'bad basic login' },
  outcomes: {
    rate_limited: { kind: 'rate_limited', status: 429, retryAfterMs: 3_000 },
    unavailable: { kind: 'retryable', status: 503 },
    auth: { kind: 'auth', status: 401 },
    invalid_recipient: { kind: 'invalid_recipient', status: 400, message: expect.stringContaining("'to' parameter is not a valid address") },
    permanent: { kind: 'permanent', status: 403, message: expect.stringContaining('Free accounts are for test purposes only') },
  },
  check: { failure: 'Forbidden' },
});
