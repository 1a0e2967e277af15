import { generateKeyPairSync } from 'node:crypto';
import { sampleEmail } from '../../../../../test/fakes/email/email-test-kit';
import { closedSmtpPort, SmtpFake, verifyDkim } from '../../../../../test/fakes/email/smtp.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { TEST_CA } from '../../../../../test/fakes/vendor-fake';
import { createProviderRuntime } from '../../provider-runtime';
import { NodemailerProvider } from './nodemailer.provider';

const LOGIN = { user: 'mailer', password: 'right-password' };
const message = sampleEmail();
const provider = new NodemailerProvider(testRuntime());
/** Loopback allowed, but only the system CAs: the test certificate is not trusted. */
const untrusting = new NodemailerProvider(createProviderRuntime({ allowPrivateNetworkTargets: true, timeoutMs: 5_000 }));
const strict = new NodemailerProvider(createProviderRuntime({ allowPrivateNetworkTargets: false, timeoutMs: 5_000 }));
const check = (target: NodemailerProvider, credentials: Record<string, unknown>) => target.check(credentials, AbortSignal.timeout(5_000));

describe('NodemailerProvider against a plain SMTP server with AUTH', () => {
  const smtp = new SmtpFake({ tls: 'none', login: LOGIN });
  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());
  beforeEach(() => smtp.reset());

  it('sends one message that arrives whole: envelope, headers, bodies, attachments; the id is its Message-ID', async () => {
    const result = await provider.send(message, smtp.credentials(), sendContext());
    expect(smtp.refusals).toEqual([]);
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.envelope).toEqual({ from: 'no-reply@example.com', to: ['ada@example.com', 'grace@example.com', 'audit@example.com'] });
    expect(mail.user).toBe('mailer');
    expect(mail.ehloName).toBe('127.0.0.1');
    const parsed = mail.parsed;
    expect(parsed.from).toEqual({ name: 'Example', address: 'no-reply@example.com' });
    expect(parsed.to).toEqual([{ name: '', address: 'ada@example.com' }]);
    expect(parsed.cc).toEqual([{ name: '', address: 'grace@example.com' }]);
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.replyTo).toEqual([{ name: '', address: 'support@example.com' }]);
    expect(parsed.subject).toBe('Welcome');
    expect(parsed.html).toContain('<p>Hello <img src="cid:logo"></p>');
    expect(parsed.text?.trim()).toBe('Hello');
    expect(parsed.headers.find((h) => h.key === 'x-campaign')?.value).toBe('welcome');
    const attachments = [...parsed.attachments].sort((a, b) => String(a.filename).localeCompare(String(b.filename)));
    expect(attachments.map((a) => [a.filename, a.mimeType, a.disposition, a.contentId, Buffer.from(a.content as ArrayBuffer).toString('hex')])).toEqual([
      ['a.txt', 'text/plain', 'attachment', undefined, Buffer.from('attached').toString('hex')],
      ['logo.png', 'image/png', 'inline', '<logo>', '89504e47'],
    ]);
    expect(result.id).toBe('<msg-1@example.com>');
    expect(parsed.messageId).toBe(result.id);
    expect(result.raw).toMatchObject({ accepted: ['ada@example.com', 'grace@example.com', 'audit@example.com'] });
  });

  it("the message's from and sender name win over the integration's", async () => {
    await provider.send({ ...message, from: 'news@example.org', senderName: 'News, Inc.' }, smtp.credentials(), sendContext());
    expect(smtp.received[0].parsed.from).toEqual({ name: 'News, Inc.', address: 'news@example.org' });
    expect(smtp.received[0].envelope.from).toBe('news@example.org');
  });

  it.each([
    ['451 on RCPT is retryable', 'unavailable', { kind: 'retryable', providerCode: '451' }],
    ['550 on RCPT is an invalid recipient', 'invalid_recipient', { kind: 'invalid_recipient', providerCode: '550' }],
    ['554 on DATA is permanent', 'permanent', { kind: 'permanent', providerCode: '554' }],
    ['535 on AUTH is auth', 'auth', { kind: 'auth', providerCode: '535' }],
  ] as const)('%s', async (_name, outcome, expected) => {
    smtp.failNext(outcome);
    const error = await providerFailure(provider.send({ ...message, cc: [], bcc: [] }, smtp.credentials(), sendContext()));
    expect(error).toMatchObject(expected);
    expect(error.message).toContain(smtp.refusals[0].message);
    expect(JSON.stringify(error.raw)).not.toContain(LOGIN.password);
    expect(smtp.received).toHaveLength(0);
  });

  it('a wrong password is auth, and the password is not in the error', async () => {
    const error = await providerFailure(provider.send(message, { ...smtp.credentials(), password: 'wrong-password' }, sendContext()));
    expect(error.kind).toBe('auth');
    expect(error.message).not.toContain('wrong-password');
  });

  it('requireTls against a server that offers no STARTTLS is permanent, nothing is sent in the clear', async () => {
    const error = await providerFailure(provider.send(message, { ...smtp.credentials(), requireTls: true }, sendContext()));
    expect(error).toMatchObject({ kind: 'permanent', raw: { code: 'ETLS' } });
    expect(error.message).toContain('STARTTLS failed');
    expect(smtp.received).toHaveLength(0);
  });

  it('a refused connection is retryable', async () => {
    const error = await providerFailure(provider.send(message, { ...smtp.credentials(), port: String(await closedSmtpPort()) }, sendContext()));
    expect(error).toMatchObject({ kind: 'retryable', raw: { code: 'ESOCKET' } });
  });

  it('missing or bad credentials fail before any connection, naming them', async () => {
    const error = await providerFailure(provider.send(message, { host: '127.0.0.1', port: 'x' }, sendContext()));
    expect(error.kind).toBe('invalid_request');
    expect(error.message).toBe(
      'The nodemailer integration needs credentials.from, credentials.senderName; credentials.port must be a port number between 1 and 65535',
    );
    expect(smtp.received).toHaveLength(0);
  });

  it('the SSRF guard: loopback only when the deployment allows it, cloud metadata never', async () => {
    const refused = await providerFailure(strict.send(message, smtp.credentials(), sendContext()));
    expect(refused).toMatchObject({ kind: 'invalid_request' });
    expect(refused.message).toContain('non-public address 127.0.0.1');
    const metadata = await providerFailure(provider.send(message, { ...smtp.credentials(), host: '169.254.169.254' }, sendContext()));
    expect(metadata.message).toContain('cloud metadata address 169.254.169.254');
    // a name that resolves to loopback is checked after resolution, like an address
    const byName = await providerFailure(strict.send(message, { ...smtp.credentials(), host: 'localhost' }, sendContext()));
    expect(byName.message).toMatch(/non-public address (127\.0\.0\.1|::1)/);
    // tlsOptions cannot point the connection elsewhere (a unix socket, another host or port)
    const redirected = await providerFailure(
      strict.send(
        message,
        { ...smtp.credentials(), host: '169.254.169.254', tlsOptions: { path: '/var/run/docker.sock', host: '8.8.8.8', port: 25, socket: 'x' } },
        sendContext(),
      ),
    );
    expect(redirected.message).toContain('cloud metadata address 169.254.169.254');
    expect(smtp.received).toHaveLength(0);
  });

  it('check: logs in and quits without sending; a bad login, a closed port or a private host fail with the reason', async () => {
    await expect(check(provider, smtp.credentials())).resolves.toEqual({ ok: true });
    expect(smtp.received).toHaveLength(0);
    const badLogin = await check(provider, { ...smtp.credentials(), password: 'wrong' });
    expect(badLogin).toEqual({ ok: false, message: expect.stringMatching(/535/) });
    const closed = await check(provider, { ...smtp.credentials(), port: String(await closedSmtpPort()) });
    expect(closed).toEqual({ ok: false, message: expect.stringMatching(/ECONNREFUSED/) });
    await expect(check(strict, smtp.credentials())).resolves.toEqual({ ok: false, message: expect.stringContaining('non-public address 127.0.0.1') });
    await expect(check(provider, { port: '25', from: 'a@example.com', senderName: 'A' })).rejects.toMatchObject({ kind: 'invalid_request' });
  });
});

describe('NodemailerProvider over TLS', () => {
  const implicit = new SmtpFake({ tls: 'implicit', login: LOGIN });
  const starttls = new SmtpFake({ tls: 'starttls', requireTls: true, login: LOGIN });
  beforeAll(() => Promise.all([implicit.start(), starttls.start()]));
  afterAll(() => Promise.all([implicit.stop(), starttls.stop()]));
  beforeEach(() => [implicit, starttls].forEach((fake) => fake.reset()));

  it('implicit TLS: dials the checked address, verifies the certificate for the host name (SNI), EHLO names the host', async () => {
    await provider.send(message, { ...implicit.credentials(), host: 'localhost' }, sendContext());
    expect(implicit.received).toHaveLength(1);
    expect(implicit.received[0]).toMatchObject({ secure: true, servername: 'localhost', ehloName: 'localhost' });
  });

  it('STARTTLS with requireTls: the message only travels encrypted', async () => {
    await provider.send(message, { ...starttls.credentials(), requireTls: 'true' }, sendContext());
    expect(starttls.refusals).toEqual([]);
    expect(starttls.received[0]).toMatchObject({ secure: true, user: 'mailer' });
  });

  it('a certificate the runtime does not trust is a permanent TLS failure (implicit and STARTTLS)', async () => {
    for (const credentials of [implicit.credentials(), { ...starttls.credentials(), requireTls: true }]) {
      const error = await providerFailure(untrusting.send(message, credentials, sendContext()));
      expect(error.kind).toBe('permanent');
      expect(error.message).toMatch(/TLS verification failed|certificate/i);
    }
    expect(implicit.received).toHaveLength(0);
    expect(starttls.received).toHaveLength(0);
  });

  it('tlsOptions applies to STARTTLS too (its ca is trusted), and cannot move the destination', async () => {
    const tlsOptions = { ca: TEST_CA, minVersion: 'TLSv1.2', host: '203.0.113.9', port: 1, servername: 'evil.example', lookup: 'x' };
    await untrusting.send(message, { ...starttls.credentials(), requireTls: true, tlsOptions: JSON.stringify(tlsOptions) }, sendContext());
    expect(starttls.received).toHaveLength(1);
    expect(starttls.received[0].secure).toBe(true);
    expect(starttls.received[0].servername).toBeUndefined(); // an IP host sends no SNI, whatever tlsOptions says
  });

  it('check verifies TLS and the login', async () => {
    await expect(check(provider, implicit.credentials())).resolves.toEqual({ ok: true });
    await expect(check(provider, { ...starttls.credentials(), requireTls: true })).resolves.toEqual({ ok: true });
    const untrusted = await check(untrusting, implicit.credentials());
    expect(untrusted.ok).toBe(false);
  });
});

describe('NodemailerProvider DKIM', () => {
  const smtp = new SmtpFake({ tls: 'none' });
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());

  it('signs with domain (d=), accountSid as the selector (s=) and secretKey; the signature verifies', async () => {
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await provider.send(message, { ...smtp.credentials(), domain: 'example.com', accountSid: 'mail2024', secretKey: pem.replace(/\n/g, '\\n') }, sendContext());
    const [mail] = await smtp.waitFor(1);
    expect(mail.parsed.headers.some((h) => h.key === 'dkim-signature')).toBe(true);
    const tags = verifyDkim(mail.raw, publicKey);
    expect(tags).toMatchObject({ d: 'example.com', s: 'mail2024', a: 'rsa-sha256' });
    expect(verifyDkim(Buffer.from(mail.raw.toString('binary').replace('Welcome', 'Welcomf'), 'binary'), publicKey)).toBe('bad signature');
  });

  it('no DKIM unless domain, selector and key are all set', async () => {
    smtp.reset();
    await provider.send(message, { ...smtp.credentials(), domain: 'example.com' }, sendContext());
    expect(smtp.received[0].parsed.headers.some((h) => h.key === 'dkim-signature')).toBe(false);
  });
});
