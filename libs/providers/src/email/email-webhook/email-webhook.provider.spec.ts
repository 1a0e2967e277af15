import { describeEmailContract } from '../../../../../test/fakes/email/email-contract';
import { sampleEmail } from '../../../../../test/fakes/email/email-test-kit';
import { EmailWebhookFake } from '../../../../../test/fakes/email/email-webhook.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { LoopbackReceiver } from '../../testing/loopback-receiver';
import { signWebhookBody } from '../../webhooks/webhook-signature';
import { EMAIL_WEBHOOK_CREDENTIALS, EmailWebhookProvider } from './email-webhook.provider';

const fake = new EmailWebhookFake();
const credentials = () => ({ webhookUrl: fake.url, secretKey: fake.secretKey, from: 'no-reply@example.com', senderName: 'Example' });
const provider = new EmailWebhookProvider(testRuntime());

beforeAll(() => fake.start());
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe('EmailWebhookProvider against a signed-webhook receiver', () => {
  it("POSTs the whole email, signed over the exact bytes; the id is the receiver's", async () => {
    const result = await provider.send(
      sampleEmail({ customData: { plan: 'pro' } }),
      credentials(),
      sendContext('msg-1', { overrides: { campaign: 'spring', subject: 'ignored' } }),
    );
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    const [request] = fake.accepted;
    expect(request.header('x-novu-signature')).toBe(signWebhookBody(request.body, fake.secretKey));
    expect(request.header('idempotency-key')).toBe('msg-1');
    expect(request.json()).toEqual({
      campaign: 'spring',
      id: 'msg-1',
      to: ['ada@example.com'],
      cc: ['grace@example.com'],
      bcc: ['audit@example.com'],
      from: 'no-reply@example.com',
      senderName: 'Example',
      replyTo: 'support@example.com',
      subject: 'Welcome',
      html: '<p>Hello <img src="cid:logo"></p>',
      text: 'Hello',
      attachments: [
        { name: 'a.txt', mime: 'text/plain', file: Buffer.from('attached').toString('base64') },
        { name: 'logo.png', mime: 'image/png', file: 'iVBORw==', cid: 'logo' },
      ],
      headers: { 'X-Campaign': 'welcome' },
      customData: { plan: 'pro' },
      tags: { transactionId: 'tx-1' },
    });
    expect(result.id).toMatch(/^hook-/);
  });

  it("the message's sender wins over the integration's", async () => {
    await provider.send(sampleEmail({ from: 'news@example.org', senderName: 'News' }), credentials(), sendContext());
    expect(fake.accepted[0].json()).toMatchObject({ from: 'news@example.org', senderName: 'News' });
  });

  it('a receiver that answers no id (204) gives our message id', async () => {
    const receiver = await LoopbackReceiver.start();
    try {
      receiver.respond((_request, res) => res.writeHead(204).end());
      const result = await provider.send(sampleEmail({ id: 'msg-42' }), { ...credentials(), webhookUrl: receiver.url() }, sendContext('msg-42'));
      expect(result.id).toBe('msg-42');
      expect(receiver.requests).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('failures are left to the queue: one attempt, no inline retries', async () => {
    fake.failNext('unavailable');
    const error = await providerFailure(provider.send(sampleEmail(), credentials(), sendContext()));
    expect(error.kind).toBe('retryable');
    expect(fake.requests).toHaveLength(1);
  });
});

describeEmailContract({
  providerId: 'email-webhook',
  schema: EMAIL_WEBHOOK_CREDENTIALS,
  fake,
  createProvider: (runtime) => new EmailWebhookProvider(runtime),
  credentials,
  wrongCredentials: { credentials: () => ({ ...credentials(), secretKey: 'wrong-secret' }), refusal: 'bad signature' },
  outcomes: {
    rate_limited: { kind: 'rate_limited', status: 429, retryAfterMs: 5_000 },
    unavailable: { kind: 'retryable', status: 503 },
    auth: { kind: 'auth', status: 401 },
    invalid_recipient: { kind: 'invalid_recipient', status: 410 },
    permanent: { kind: 'invalid_request', status: 422, retryable: false },
  },
  check: false,
});
