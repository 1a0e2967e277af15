import { EmailMessage } from '@app/delivery';
import { alikeEmail, rateLimitedBatch, sendAtOnce } from '../../../../../test/fakes/email/email-test-kit';
import { SendgridFake } from '../../../../../test/fakes/email/sendgrid.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { createProviderRuntime } from '../../provider-runtime';
import { SendgridProvider } from './sendgrid.provider';

const message: EmailMessage = {
  id: 'msg-1',
  to: ['ada@example.com'],
  cc: ['grace@example.com'],
  subject: 'Welcome',
  html: '<p>Hello</p>',
  text: 'Hello',
  replyTo: 'support@example.com',
  attachments: [{ name: 'a.txt', mime: 'text/plain', file: Buffer.from('attached') }],
  tags: { transactionId: 'tx-1' },
};

describe('SendgridProvider against a SendGrid fake', () => {
  const fake = new SendgridFake();
  const provider = new SendgridProvider(testRuntime());
  const credentials = () => ({ apiKey: fake.apiKey, from: 'no-reply@example.com', senderName: 'Example', baseUrl: fake.origin });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('sends one Mail Send request SendGrid accepts, and takes the id from X-Message-Id', async () => {
    const result = await provider.send(message, credentials(), sendContext('msg-1', { overrides: { ipPoolName: 'transactional' } }));
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    const body = fake.accepted[0].json();
    expect(body).toEqual({
      personalizations: [{ to: [{ email: 'ada@example.com' }], cc: [{ email: 'grace@example.com' }] }],
      from: { email: 'no-reply@example.com', name: 'Example' },
      reply_to: { email: 'support@example.com' },
      subject: 'Welcome',
      content: [
        { type: 'text/plain', value: 'Hello' },
        { type: 'text/html', value: '<p>Hello</p>' },
      ],
      attachments: [{ content: Buffer.from('attached').toString('base64'), filename: 'a.txt', type: 'text/plain', disposition: 'attachment' }],
      custom_args: { transactionId: 'tx-1', id: 'msg-1' },
      ip_pool_name: 'transactional',
    });
    expect(result.id).toMatch(/^[0-9a-f]{22}$/);
    expect(Date.parse(result.date)).not.toBeNaN();
  });

  describe('batches', () => {
    const alike = alikeEmail;

    it('messages alike sent at once go in one request, a personalization each with its own custom_args; each keeps the request id', async () => {
      const results = await Promise.all([0, 1, 2].map((i) => provider.send(alike(i), credentials(), sendContext(`m-${i}`))));
      expect(fake.accepted).toHaveLength(1);
      const body = fake.accepted[0].json();
      expect(body.personalizations).toEqual(
        [0, 1, 2].map((i) => ({ to: [{ email: `reader${i}@example.com` }], custom_args: { transactionId: 'tx-b', id: `m-${i}` } })),
      );
      expect(body).not.toHaveProperty('custom_args');
      expect(new Set(results.map((result) => result.id)).size).toBe(1);
      expect(results[0].raw).toEqual({ status: 202, batch: 3 });
    });

    it('messages that differ go apart', async () => {
      await Promise.all([
        provider.send(alike(0), credentials(), sendContext('m-0')),
        provider.send({ ...alike(1), subject: 'Other' }, credentials(), sendContext('m-1')),
      ]);
      expect(fake.accepted.map((request) => request.json().personalizations.length)).toEqual([1, 1]);
    });

    it('a batch SendGrid refuses for one address is sent again one by one: only that message fails', async () => {
      const outcomes = await Promise.allSettled(
        [alike(0), alike(1, 'not-an-address'), alike(2)].map((m) => provider.send(m, credentials(), sendContext(m.id))),
      );
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(outcomes[1]).toMatchObject({ reason: { kind: 'invalid_recipient' } });
      expect(fake.requests).toHaveLength(4);
      expect(fake.accepted).toHaveLength(2);
    });

    it("a 429 of a batch is every message's, and nothing is sent again one by one", async () => {
      expect(await rateLimitedBatch(fake, () => sendAtOnce(provider, credentials(), [alike(0), alike(1)]))).toEqual({
        kinds: ['rate_limited', 'rate_limited'],
        requests: 1,
      });
    });
  });

  it("the message's from and sender name win over the integration's; passthrough reaches the body", async () => {
    await provider.send(
      { ...message, from: 'news@example.com', senderName: 'News, Inc.' },
      credentials(),
      sendContext('m', { passthrough: { body: { categories: ['digest'] }, headers: { 'x-extra': '1' } } }),
    );
    const request = fake.accepted[0];
    expect(request.json()).toMatchObject({ from: { email: 'news@example.com', name: 'News, Inc.' }, categories: ['digest'] });
    expect(request.header('x-extra')).toBe('1');
  });

  it('429 is rate limited until X-RateLimit-Reset', async () => {
    fake.failNext('rate_limited');
    const error = await providerFailure(provider.send(message, credentials(), sendContext()));
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(3_000);
  });

  it('503 is retryable, 401 is auth, a refused recipient is invalid_recipient, a 403 sender error is not retried', async () => {
    fake.failNext('unavailable', 'auth', 'invalid_recipient', 'permanent');
    expect(await providerFailure(provider.send(message, credentials(), sendContext()))).toMatchObject({ kind: 'retryable', status: 503 });
    expect(await providerFailure(provider.send(message, credentials(), sendContext()))).toMatchObject({ kind: 'auth', status: 401 });
    const recipient = await providerFailure(provider.send(message, credentials(), sendContext()));
    expect(recipient).toMatchObject({ kind: 'invalid_recipient', status: 400 });
    expect(recipient.message).toContain('personalizations.0.to.0.email: Does not contain a valid address.');
    const sender = await providerFailure(provider.send(message, credentials(), sendContext()));
    expect(sender.retryable).toBe(false);
    expect(sender.message).toContain('verified Sender Identity');
    expect(fake.accepted).toHaveLength(0);
  });

  it('a wrong key is refused by the fake as SendGrid would (auth)', async () => {
    const error = await providerFailure(provider.send(message, { ...credentials(), apiKey: 'SG.wrong' }, sendContext()));
    expect(error.kind).toBe('auth');
    expect(fake.refusals.map((r) => r.reason)).toEqual(['bad bearer key']);
  });

  it('missing credentials fail before any request, naming them', async () => {
    const error = await providerFailure(provider.send(message, { baseUrl: fake.origin }, sendContext()));
    expect(error.kind).toBe('invalid_request');
    expect(error.message).toBe('The sendgrid integration needs credentials.apiKey, credentials.from, credentials.senderName');
    expect(fake.requests).toHaveLength(0);
  });

  it('the baseUrl passes the SSRF guard: loopback is refused unless the deployment allows it', async () => {
    const strict = new SendgridProvider(createProviderRuntime({ allowPrivateNetworkTargets: false }));
    const error = await providerFailure(strict.send(message, credentials(), sendContext()));
    expect(error.kind).toBe('invalid_request');
    expect(error.message).toContain('non-public address 127.0.0.1');
    expect(fake.requests).toHaveLength(0);
  });

  it("check: a key with mail.send passes, a wrong key fails with SendGrid's words", async () => {
    await expect(provider.check(credentials(), AbortSignal.timeout(5_000))).resolves.toEqual({ ok: true });
    await expect(provider.check({ ...credentials(), apiKey: 'SG.wrong' }, AbortSignal.timeout(5_000))).resolves.toEqual({
      ok: false,
      message: 'The provided authorization grant is invalid, expired, or revoked',
    });
  });
});

describe('SendgridProvider over HTTPS', () => {
  const fake = new SendgridFake();
  beforeAll(() => fake.start('https'));
  afterAll(() => fake.close());

  it('trusts the runtime CA: sends to an https origin signed by it', async () => {
    const provider = new SendgridProvider(testRuntime());
    await provider.send(message, { apiKey: fake.apiKey, from: 'a@example.com', senderName: 'A', baseUrl: fake.origin }, sendContext());
    expect(fake.accepted).toHaveLength(1);
    const untrusting = new SendgridProvider(createProviderRuntime({ allowPrivateNetworkTargets: true }));
    const error = await providerFailure(
      untrusting.send(message, { apiKey: fake.apiKey, from: 'a@example.com', senderName: 'A', baseUrl: fake.origin }, sendContext()),
    );
    expect(error.kind).toBe('permanent');
    expect(error.message).toContain('TLS verification failed');
  });
});
