import { EmailMessage } from '@app/delivery';
import { describeEmailContract } from '../../../../../test/fakes/email/email-contract';
import { alikeEmail, parseMultipart, rateLimitedBatch, sampleEmail, sendAtOnce } from '../../../../../test/fakes/email/email-test-kit';
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

  describe('batches', () => {
    // The engine tags each message with its subscriber: a variable of its own, as the id is.
    const alike = (i: number, to?: string): EmailMessage => ({ ...alikeEmail(i, to), tags: { transactionId: 'tx-b', subscriberId: `s-${i}` } });
    const sendAll = (messages: EmailMessage[]) => sendAtOnce(provider, credentials(), messages);

    it('messages alike sent at once go in one request with recipient variables: Mailgun makes each its own message carrying its own v:id', async () => {
      const outcomes = await sendAll([0, 1, 2].map((i) => alike(i)));
      expect(fake.refusals).toEqual([]);
      expect(fake.accepted).toHaveLength(1);
      expect(fake.deliveries).toEqual(
        [0, 1, 2].map((i) => ({ to: `reader${i}@example.com`, subject: 'News', variables: { transactionId: 'tx-b', subscriberId: `s-${i}`, id: `m-${i}` } })),
      );
      const results = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : undefined));
      expect(new Set(results.map((result) => result?.id)).size).toBe(1);
      expect(results[0]?.raw).toMatchObject({ status: 200, batch: 3 });
    });

    it('messages that differ, carry cc, or read like recipient variables go apart', async () => {
      await sendAll([alike(0), { ...alike(1), subject: 'Other' }, { ...alike(2), cc: ['cc@example.com'] }, { ...alike(3), html: '<p>100%recipient.x%</p>' }]);
      expect(fake.accepted).toHaveLength(4);
      expect(fake.accepted.every((request) => !parseMultipart(request)!.some((part) => part.name === 'recipient-variables'))).toBe(true);
    });

    it('the same address twice goes in two requests (recipient variables are keyed by address)', async () => {
      await sendAll([alike(0), alike(1, 'reader0@example.com'), alike(2)]);
      expect(fake.accepted).toHaveLength(2);
      expect(fake.deliveries.map((delivery) => delivery.variables.id).sort()).toEqual(['m-0', 'm-1', 'm-2']);
    });

    it('a batch Mailgun refuses for one address is sent again one by one: only that message fails', async () => {
      const outcomes = await sendAll([alike(0), alike(1, 'not-an-address'), alike(2)]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(outcomes[1]).toMatchObject({ reason: { kind: 'invalid_recipient' } });
      expect(fake.requests).toHaveLength(4);
      expect(fake.deliveries.map((delivery) => delivery.variables.id)).toEqual(['m-0', 'm-2']);
    });

    it("a 429 of a batch is every message's, and nothing is sent again one by one", async () => {
      expect(await rateLimitedBatch(fake, () => sendAll([alike(0), alike(1)]))).toEqual({ kinds: ['rate_limited', 'rate_limited'], requests: 1 });
    });

    it('more than 1,000 at once go in requests of at most 1,000 recipients (the fake refuses more)', async () => {
      const outcomes = await sendAll(Array.from({ length: 1001 }, (_, i) => alike(i)));
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      expect(fake.refusals).toEqual([]);
      expect(fake.accepted).toHaveLength(2);
      expect(fake.deliveries).toHaveLength(1001);
    });
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
