import { describeEmailContract } from '../../../../../test/fakes/email/email-contract';
import { sampleEmail } from '../../../../../test/fakes/email/email-test-kit';
import { SendinblueFake } from '../../../../../test/fakes/email/sendinblue.fake';
import { sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { SENDINBLUE_CREDENTIALS, SendinblueProvider } from './sendinblue.provider';

const fake = new SendinblueFake();
const credentials = () => ({ apiKey: fake.apiKey, from: 'no-reply@example.com', senderName: 'Example', baseUrl: fake.origin });
const provider = new SendinblueProvider(testRuntime());

beforeAll(() => fake.start());
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe('SendinblueProvider against a Brevo fake', () => {
  it('sends one request Brevo accepts (201); the id is its messageId', async () => {
    const result = await provider.send(sampleEmail(), credentials(), sendContext('msg-1'));
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    const body = fake.accepted[0].json();
    expect(body).toEqual({
      sender: { email: 'no-reply@example.com', name: 'Example' },
      to: [{ email: 'ada@example.com' }],
      cc: [{ email: 'grace@example.com' }],
      bcc: [{ email: 'audit@example.com' }],
      replyTo: { email: 'support@example.com' },
      subject: 'Welcome',
      htmlContent: '<p>Hello <img src="cid:logo"></p>',
      textContent: 'Hello',
      attachment: [
        { name: 'a.txt', content: Buffer.from('attached').toString('base64') },
        { name: 'logo.png', content: 'iVBORw==' },
      ],
      headers: {
        'X-Campaign': 'welcome',
        'X-Mailin-custom': 'transactionId:tx-1|id:msg-1',
        idempotencyKey: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      },
      tags: ['transactionId:tx-1', 'id:msg-1'],
    });
    expect(result.id).toMatch(/^<[0-9a-f-]+@smtp-relay\.mailin\.fr>$/);
  });

  it('a retried send carries the same idempotency key, so Brevo does not send it twice', async () => {
    const first = await provider.send(sampleEmail(), credentials(), sendContext('msg-7'));
    const again = await provider.send(sampleEmail(), credentials(), sendContext('msg-7'));
    expect(again.id).toBe(first.id);
    expect(fake.accepted).toHaveLength(1);
    await provider.send(sampleEmail({ id: 'msg-8' }), credentials(), sendContext('msg-8'));
    expect(fake.accepted).toHaveLength(2);
  });
});

describeEmailContract({
  providerId: 'sendinblue',
  schema: SENDINBLUE_CREDENTIALS,
  fake,
  createProvider: (runtime) => new SendinblueProvider(runtime),
  credentials,
  wrongCredentials: { credentials: () => ({ ...credentials(), apiKey: 'xkeysib-wrong' }), refusal: 'bad api-key' },
  outcomes: {
    rate_limited: { kind: 'rate_limited', status: 429, retryAfterMs: 2_000, providerCode: 'too_many_requests' },
    unavailable: { kind: 'retryable', status: 503 },
    auth: { kind: 'auth', status: 401, providerCode: 'unauthorized' },
    invalid_recipient: { kind: 'invalid_recipient', status: 400, message: expect.stringContaining('email is not valid in to') },
    permanent: { kind: 'invalid_request', status: 400, retryable: false, message: expect.stringContaining('Sender is invalid / inactive') },
  },
  check: { failure: 'Key not found' },
});
