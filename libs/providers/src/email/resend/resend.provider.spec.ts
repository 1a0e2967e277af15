import { describeEmailContract } from '../../../../../test/fakes/email/email-contract';
import { sampleEmail } from '../../../../../test/fakes/email/email-test-kit';
import { ResendFake } from '../../../../../test/fakes/email/resend.fake';
import { sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { RESEND_CREDENTIALS, ResendProvider } from './resend.provider';

const fake = new ResendFake();
const credentials = () => ({ apiKey: fake.apiKey, from: 'no-reply@example.com', senderName: 'Example', baseUrl: fake.origin });
const provider = new ResendProvider(testRuntime());

beforeAll(() => fake.start());
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe('ResendProvider against a Resend fake', () => {
  it("sends one snake_case request Resend accepts, with our id as Idempotency-Key; the id is Resend's", async () => {
    const result = await provider.send(sampleEmail(), credentials(), sendContext('msg-1'));
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    const [request] = fake.accepted;
    expect(request.header('idempotency-key')).toBe('msg-1');
    expect(request.json()).toEqual({
      from: 'Example <no-reply@example.com>',
      to: ['ada@example.com'],
      cc: ['grace@example.com'],
      bcc: ['audit@example.com'],
      subject: 'Welcome',
      html: '<p>Hello <img src="cid:logo"></p>',
      text: 'Hello',
      reply_to: 'support@example.com',
      attachments: [
        { filename: 'a.txt', content: Buffer.from('attached').toString('base64'), content_type: 'text/plain' },
        { filename: 'logo.png', content: 'iVBORw==', content_type: 'image/png', content_id: 'logo' },
      ],
      headers: { 'X-Campaign': 'welcome' },
      tags: [
        { name: 'transactionId', value: 'tx-1' },
        { name: 'id', value: 'msg-1' },
      ],
    });
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a retried send with the same id is not sent twice: Resend answers the first id', async () => {
    const first = await provider.send(sampleEmail(), credentials(), sendContext('msg-7'));
    const again = await provider.send(sampleEmail(), credentials(), sendContext('msg-7'));
    expect(again.id).toBe(first.id);
    expect(fake.accepted).toHaveLength(1);
  });

  it('tags Resend would refuse are left out instead of failing the send', async () => {
    await provider.send(sampleEmail({ tags: { 'workflow id': 'x', stepId: 'a/b', ok: 'yes' } }), credentials(), sendContext());
    expect(fake.accepted[0].json().tags).toEqual([
      { name: 'ok', value: 'yes' },
      { name: 'id', value: 'msg-1' },
    ]);
  });

  it('check: a sending-only key is a valid key', async () => {
    await expect(provider.check({ ...credentials(), apiKey: fake.sendingOnlyKey }, AbortSignal.timeout(5_000))).resolves.toEqual({ ok: true });
  });
});

describeEmailContract({
  providerId: 'resend',
  schema: RESEND_CREDENTIALS,
  fake,
  createProvider: (runtime) => new ResendProvider(runtime),
  credentials,
  wrongCredentials: { credentials: () => ({ ...credentials(), apiKey: 're_wrong' }), refusal: 'bad bearer key' },
  outcomes: {
    rate_limited: { kind: 'rate_limited', status: 429, retryAfterMs: 1_000, providerCode: 'rate_limit_exceeded' },
    unavailable: { kind: 'retryable', status: 500 },
    auth: { kind: 'auth', status: 403, providerCode: 'invalid_api_key' },
    invalid_recipient: { kind: 'invalid_recipient', status: 422, message: expect.stringContaining('Invalid `to` field') },
    permanent: { kind: 'permanent', status: 403, message: expect.stringContaining('only send testing emails') },
  },
  check: { failure: 'API key is invalid' },
});
