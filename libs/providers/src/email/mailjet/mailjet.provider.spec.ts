import { describeEmailContract } from '../../../../../test/fakes/email/email-contract';
import { sampleEmail } from '../../../../../test/fakes/email/email-test-kit';
import { MailjetFake } from '../../../../../test/fakes/email/mailjet.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { MAILJET_CREDENTIALS, MailjetProvider } from './mailjet.provider';

const fake = new MailjetFake();
const credentials = () => ({ apiKey: fake.apiKey, secretKey: fake.secretKey, from: 'no-reply@example.com', senderName: 'Example', baseUrl: fake.origin });
const provider = new MailjetProvider(testRuntime());

beforeAll(() => fake.start());
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe('MailjetProvider against a Mailjet fake', () => {
  it('sends one v3.1 request Mailjet accepts; the id is the MessageID, digit for digit', async () => {
    const result = await provider.send(sampleEmail(), credentials(), sendContext());
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(fake.accepted[0].json()).toEqual({
      Messages: [
        {
          From: { Email: 'no-reply@example.com', Name: 'Example' },
          To: [{ Email: 'ada@example.com' }],
          Cc: [{ Email: 'grace@example.com' }],
          Bcc: [{ Email: 'audit@example.com' }],
          ReplyTo: { Email: 'support@example.com' },
          Subject: 'Welcome',
          TextPart: 'Hello',
          HTMLPart: '<p>Hello <img src="cid:logo"></p>',
          Attachments: [{ ContentType: 'text/plain', Filename: 'a.txt', Base64Content: Buffer.from('attached').toString('base64') }],
          InlinedAttachments: [{ ContentType: 'image/png', Filename: 'logo.png', Base64Content: 'iVBORw==', ContentID: 'logo' }],
          Headers: { 'X-Campaign': 'welcome' },
          CustomID: 'msg-1',
          EventPayload: '{"transactionId":"tx-1","id":"msg-1"}',
        },
      ],
    });
    // The fake's ids are beyond Number.MAX_SAFE_INTEGER: only a textual read keeps them.
    expect(result.id).toMatch(/^\d{19}$/);
  });

  it("the id is the first recipient's MessageID", async () => {
    const result = await provider.send(sampleEmail({ cc: undefined, bcc: undefined }), credentials(), sendContext());
    expect(result.id).toBe(fake.lastMessageId);
  });

  it('a 200 whose message has Status "error" is a failure, classified by its own status code', async () => {
    fake.failNext('permanent');
    const error = await providerFailure(provider.send(sampleEmail(), credentials(), sendContext()));
    expect(error).toMatchObject({ kind: 'permanent', status: 403, providerCode: 'send-0008' });
    expect(error.message).toContain('is not an authorized sender email address');
  });

  it('an invalid sender address (From) is invalid_request, not invalid_recipient', async () => {
    const error = await providerFailure(provider.send(sampleEmail({ from: 'nobody' }), credentials(), sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, providerCode: 'mj-0013' });
  });
});

describeEmailContract({
  providerId: 'mailjet',
  schema: MAILJET_CREDENTIALS,
  fake,
  createProvider: (runtime) => new MailjetProvider(runtime),
  credentials,
  wrongCredentials: { credentials: () => ({ ...credentials(), secretKey: 'wrong-secret' }), refusal: 'bad basic login' },
  outcomes: {
    rate_limited: { kind: 'rate_limited', status: 429, retryAfterMs: 2_000 },
    unavailable: { kind: 'retryable', status: 503 },
    auth: { kind: 'auth', status: 401 },
    invalid_recipient: { kind: 'invalid_recipient', status: 400, providerCode: 'mj-0013' },
    permanent: { kind: 'permanent', status: 403 },
  },
  check: { failure: /API key authentication\/authorization failure/ },
});
