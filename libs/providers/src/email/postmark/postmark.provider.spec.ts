import { EmailMessage } from '@app/delivery';
import { describeEmailContract } from '../../../../../test/fakes/email/email-contract';
import { rateLimitedBatch, sampleEmail, sendAtOnce } from '../../../../../test/fakes/email/email-test-kit';
import { PostmarkFake } from '../../../../../test/fakes/email/postmark.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { POSTMARK_CREDENTIALS, PostmarkProvider } from './postmark.provider';

const fake = new PostmarkFake();
const credentials = () => ({ apiKey: fake.serverToken, from: 'no-reply@example.com', senderName: 'Example', baseUrl: fake.origin });
const provider = new PostmarkProvider(testRuntime());

beforeAll(() => fake.start());
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe('PostmarkProvider against a Postmark fake', () => {
  it('sends one PascalCase request Postmark accepts; the id is its MessageID', async () => {
    const result = await provider.send(sampleEmail(), credentials(), sendContext('msg-1', { overrides: { messageStream: 'broadcast' } }));
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(fake.accepted[0].json()).toEqual({
      From: 'Example <no-reply@example.com>',
      To: 'ada@example.com',
      Cc: 'grace@example.com',
      Bcc: 'audit@example.com',
      Subject: 'Welcome',
      HtmlBody: '<p>Hello <img src="cid:logo"></p>',
      TextBody: 'Hello',
      ReplyTo: 'support@example.com',
      Headers: [{ Name: 'X-Campaign', Value: 'welcome' }],
      Attachments: [
        { Name: 'a.txt', Content: Buffer.from('attached').toString('base64'), ContentType: 'text/plain' },
        { Name: 'logo.png', Content: 'iVBORw==', ContentType: 'image/png', ContentID: 'cid:logo' },
      ],
      Metadata: { transactionId: 'tx-1', id: 'msg-1' },
      MessageStream: 'broadcast',
    });
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('several recipients go as one comma list; optional fields are left out', async () => {
    await provider.send(
      sampleEmail({ to: ['a@example.com', 'b@example.com'], cc: undefined, bcc: undefined, text: undefined, attachments: undefined, headers: undefined }),
      credentials(),
      sendContext(),
    );
    const body = fake.accepted[0].json();
    expect(body.To).toBe('a@example.com, b@example.com');
    expect(Object.keys(body)).toEqual(['From', 'To', 'Subject', 'HtmlBody', 'ReplyTo', 'Metadata']);
  });

  it('an address Postmark cannot parse (422, ErrorCode 300) is invalid_request in its words', async () => {
    const error = await providerFailure(provider.send(sampleEmail({ to: ['not-an-address'] }), credentials(), sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_request', status: 422, providerCode: '300' });
    expect(error.message).toContain("Illegal email address 'not-an-address'");
  });

  describe('batches', () => {
    const plain = (i: number, to = `reader${i}@example.com`): EmailMessage => ({ id: `m-${i}`, to: [to], subject: `News ${i}`, html: `<p>News ${i}</p>` });
    const sendAll = (messages: EmailMessage[]) => sendAtOnce(provider, credentials(), messages);

    it('messages sent at once go in one /email/batch request; each keeps its own MessageID and Metadata id', async () => {
      const outcomes = await sendAll([0, 1, 2].map((i) => plain(i)));
      expect(fake.refusals).toEqual([]);
      expect(fake.accepted.map((request) => request.path)).toEqual(['/email/batch']);
      const body = fake.accepted[0].json();
      expect(body.map((m: any) => [m.To, m.Subject, m.Metadata.id])).toEqual([0, 1, 2].map((i) => [`reader${i}@example.com`, `News ${i}`, `m-${i}`]));
      const ids = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.id : undefined));
      expect(new Set(ids).size).toBe(3);
      expect(outcomes[0]).toMatchObject({ value: { raw: { status: 200, batch: 3 } } });
    });

    it("each message's ErrorCode is its own: an inactive recipient fails alone and nothing is sent again", async () => {
      fake.inactive.add('reader1@example.com');
      const outcomes = await sendAll([0, 1, 2].map((i) => plain(i)));
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(outcomes[1]).toMatchObject({ reason: { kind: 'invalid_recipient', providerCode: '406', status: 422 } });
      expect(fake.requests).toHaveLength(1);
    });

    it("a 429 of the batch is every message's", async () => {
      expect(await rateLimitedBatch(fake, () => sendAll([plain(0), plain(1)]))).toEqual({ kinds: ['rate_limited', 'rate_limited'], requests: 1 });
    });

    it('more than 500 at once go in requests of at most 500 (the fake refuses more); a message with attachments goes alone', async () => {
      const outcomes = await sendAll([...Array.from({ length: 501 }, (_, i) => plain(i)), sampleEmail({ id: 'with-files' })]);
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      expect(fake.refusals).toEqual([]);
      const sizes = fake.accepted.map((request) => (request.path === '/email' ? 1 : request.json().length)).sort((a, b) => a - b);
      expect(sizes).toEqual([1, 1, 500]);
    });
  });
});

describeEmailContract({
  providerId: 'postmark',
  schema: POSTMARK_CREDENTIALS,
  fake,
  createProvider: (runtime) => new PostmarkProvider(runtime),
  credentials,
  wrongCredentials: { credentials: () => ({ ...credentials(), apiKey: 'wrong-token' }), refusal: 'bad server token' },
  outcomes: {
    rate_limited: { kind: 'rate_limited', status: 429 },
    unavailable: { kind: 'retryable', status: 503 },
    auth: { kind: 'auth', status: 422, providerCode: '10' },
    invalid_recipient: { kind: 'invalid_recipient', providerCode: '406', message: expect.stringContaining('marked as inactive') },
    permanent: { kind: 'permanent', providerCode: '400', message: expect.stringContaining('not a Sender Signature') },
  },
  check: { failure: /Server Token you provided .* was invalid/ },
});
