import { createPublicKey, createVerify, createHash, KeyObject } from 'node:crypto';
import { AddressInfo } from 'node:net';
import PostalMime, { Email } from 'postal-mime';
import { SMTPServer, SMTPServerSession } from 'smtp-server';
import { TEST_TLS, VendorOutcome } from '../vendor-fake';

/**
 * A real SMTP server (smtp-server) on 127.0.0.1:<ephemeral> for adapter and end-to-end tests:
 * plain, implicit TLS or STARTTLS with the test certificate (CN=localhost, SAN 127.0.0.1), AUTH
 * when a login is configured, every accepted message kept raw and parsed (postal-mime), and
 * scripted SMTP failures at the stage a real server would answer them.
 */

export type SmtpTls = 'none' | 'implicit' | 'starttls';

export interface SmtpFakeOptions {
  /** none: STARTTLS is not offered. Default starttls. */
  tls?: SmtpTls;
  /** Refuse MAIL FROM on an unencrypted session (530), as a server that requires STARTTLS does. */
  requireTls?: boolean;
  /** AUTH PLAIN/LOGIN required with this login; without it AUTH is not offered. */
  login?: { user: string; password: string };
}

/** What a test scripts: a named vendor outcome, or any SMTP reply at a given command. */
export type SmtpFailure = Exclude<VendorOutcome, 'rate_limited'> | SmtpReply;

export interface SmtpReply {
  at: 'auth' | 'mail' | 'rcpt' | 'data';
  code: number;
  message: string;
}

const OUTCOMES: Record<Exclude<VendorOutcome, 'rate_limited'>, SmtpReply> = {
  unavailable: { at: 'rcpt', code: 451, message: '4.3.0 Temporary local problem, try again later' },
  invalid_recipient: { at: 'rcpt', code: 550, message: '5.1.1 Mailbox does not exist' },
  permanent: { at: 'data', code: 554, message: '5.7.1 Message rejected as spam' },
  auth: { at: 'auth', code: 535, message: '5.7.8 Authentication credentials invalid' },
};

export interface ReceivedEmail {
  /** MAIL FROM and RCPT TO, as the server saw them. */
  envelope: { from: string; to: string[] };
  /** The DATA bytes, as sent. */
  raw: Buffer;
  parsed: Email;
  /** Whether the session was encrypted (implicit TLS or after STARTTLS). */
  secure: boolean;
  /** The client's EHLO/HELO name. */
  ehloName: string;
  /** The TLS server name (SNI) the client asked for. */
  servername?: string;
  /** The logged-in user, when AUTH was used. */
  user?: string;
}

export class SmtpFake {
  readonly received: ReceivedEmail[] = [];
  /** Every SMTP error reply the fake gave, scripted or not. */
  readonly refusals: { at: string; code: number; message: string }[] = [];
  /** Connection-level failures the server saw (TLS handshakes a client abandoned, resets). */
  readonly connectionErrors: Error[] = [];
  private readonly script: SmtpReply[] = [];
  /** The reply due in a transaction, taken from the script at MAIL FROM. */
  private readonly pending = new Map<string, SmtpReply>();
  private server?: SMTPServer;

  constructor(readonly options: SmtpFakeOptions = {}) {}

  get port(): number {
    return (this.server!.server.address() as AddressInfo).port;
  }

  /** The integration credentials that reach this server (add user/password, tls flags as needed). */
  credentials(): Record<string, unknown> {
    const login = this.options.login;
    return {
      host: '127.0.0.1',
      port: String(this.port),
      from: 'no-reply@example.com',
      senderName: 'Example',
      ...(this.options.tls === 'implicit' ? { secure: true } : {}),
      ...(login ? { user: login.user, password: login.password } : {}),
    };
  }

  /**
   * The next transactions fail with these answers, in order: each one is taken at MAIL FROM and
   * answers at its stage (every RCPT TO of that transaction, for `rcpt`). An `auth` answer is
   * taken by the next login instead, so it needs a `login` configured.
   */
  failNext(...failures: SmtpFailure[]): this {
    this.script.push(...failures.map((failure) => (typeof failure === 'string' ? OUTCOMES[failure] : failure)));
    return this;
  }

  /** Resolves once `count` messages have arrived (end-to-end tests, where a queue sends later). */
  async waitFor(count = 1, timeoutMs = 5_000): Promise<ReceivedEmail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`SmtpFake: ${this.received.length} of ${count} messages arrived within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.received.slice(0, count);
  }

  reset(): void {
    this.received.length = 0;
    this.refusals.length = 0;
    this.connectionErrors.length = 0;
    this.script.length = 0;
    this.pending.clear();
  }

  async start(): Promise<this> {
    const tls = this.options.tls ?? 'starttls';
    const login = this.options.login;
    const fail = (reply: SmtpReply) => {
      this.refusals.push({ ...reply });
      return Object.assign(new Error(reply.message), { responseCode: reply.code });
    };
    const due = (session: SMTPServerSession, at: SmtpReply['at']) => {
      const key = `${session.id}:${session.transaction}`;
      const reply = this.pending.get(key);
      return reply?.at === at ? reply : undefined;
    };
    this.server = new SMTPServer({
      ...TEST_TLS,
      secure: tls === 'implicit',
      name: 'smtp.fake.test',
      logger: false,
      disableReverseLookup: true,
      authOptional: !login,
      disabledCommands: [...(tls === 'none' ? ['STARTTLS'] : []), ...(login ? [] : ['AUTH'])],
      // The fake accepts AUTH in the clear only when no TLS is configured at all.
      allowInsecureAuth: tls === 'none',
      onAuth: (auth, _session, callback) => {
        if (this.script[0]?.at === 'auth') return callback(fail(this.script.shift()!));
        if (login && auth.username === login.user && auth.password === login.password) return callback(null, { user: auth.username });
        callback(fail({ at: 'auth', code: 535, message: '5.7.8 Authentication credentials invalid' }));
      },
      onMailFrom: (_address, session, callback) => {
        if (this.options.requireTls && !session.secure) return callback(fail({ at: 'mail', code: 530, message: '5.7.0 Must issue a STARTTLS command first' }));
        const next = this.script[0];
        if (next && next.at !== 'auth') this.pending.set(`${session.id}:${session.transaction}`, this.script.shift()!);
        const reply = due(session, 'mail');
        callback(reply ? fail(reply) : null);
      },
      onRcptTo: (_address, session, callback) => {
        const reply = due(session, 'rcpt');
        callback(reply ? fail(reply) : null);
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const reply = due(session, 'data');
          if (reply) return callback(fail(reply));
          const raw = Buffer.concat(chunks);
          PostalMime.parse(raw).then(
            (parsed) => {
              this.received.push({
                envelope: { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address) },
                raw,
                parsed,
                secure: session.secure,
                ehloName: session.hostNameAppearsAs,
                ...(session.servername ? { servername: session.servername } : {}),
                ...(session.user ? { user: String(session.user) } : {}),
              });
              callback(null, `2.0.0 Ok: queued as ${this.received.length}`);
            },
            (error: Error) => callback(fail({ at: 'data', code: 554, message: `5.6.0 Unparseable message: ${error.message}` })),
          );
        });
      },
    });
    // Clients that give up (an untrusted certificate, a timeout) are the tests' business, not errors.
    this.server.on('error', (error) => this.connectionErrors.push(error));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    for (const connection of server.connections) connection.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A port nothing listens on (bound, then released). */
export async function closedSmtpPort(): Promise<number> {
  const fake = await new SmtpFake().start();
  const port = fake.port;
  await fake.stop();
  return port;
}

/**
 * Verifies the first DKIM-Signature of a raw message with relaxed/relaxed canonicalization (what
 * nodemailer signs with) against the signer's public key: the body hash and the header signature,
 * as a receiving MTA does. Returns the signature's tags, or the reason it does not verify.
 */
export function verifyDkim(raw: Buffer, publicKey: KeyObject | string): Record<string, string> | string {
  const text = raw.toString('binary');
  const split = text.indexOf('\r\n\r\n');
  const headerBlock = text.slice(0, split);
  const body = text.slice(split + 4);
  const headers = headerBlock.split(/\r\n(?![ \t])/).map((line) => {
    const colon = line.indexOf(':');
    return { name: line.slice(0, colon).trim().toLowerCase(), line };
  });
  const signature = headers.find((header) => header.name === 'dkim-signature');
  if (!signature) return 'no DKIM-Signature header';
  const tags = Object.fromEntries(
    signature.line
      .slice(signature.line.indexOf(':') + 1)
      .split(';')
      .map((part) => part.replace(/\s+/g, ''))
      .filter(Boolean)
      .map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]),
  );
  if (tags.c !== 'relaxed/relaxed' || tags.a !== 'rsa-sha256') return `unsupported c=${tags.c} a=${tags.a}`;
  const relaxedBody = body
    .split('\r\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').replace(/ +$/, ''))
    .join('\r\n')
    .replace(/(\r\n)*$/, '\r\n');
  const bodyHash = createHash('sha256')
    .update(relaxedBody === '\r\n' ? '' : relaxedBody, 'binary')
    .digest('base64');
  if (bodyHash !== tags.bh) return 'body hash mismatch';
  const relaxedHeader = (line: string) => {
    const colon = line.indexOf(':');
    const value = line
      .slice(colon + 1)
      .replace(/\r\n/g, '')
      .replace(/[ \t]+/g, ' ')
      .trim();
    return `${line.slice(0, colon).trim().toLowerCase()}:${value}`;
  };
  // Each signed name takes the last unused instance of that header (RFC 6376 §5.4.2).
  const used = new Set<number>();
  const signed: string[] = [];
  for (const name of tags.h.toLowerCase().split(':')) {
    for (let i = headers.length - 1; i >= 0; i--) {
      if (headers[i].name === name && !used.has(i) && headers[i] !== signature) {
        used.add(i);
        signed.push(`${relaxedHeader(headers[i].line)}\r\n`);
        break;
      }
    }
  }
  // The signature header signs itself with an empty b= value, without the trailing CRLF.
  const ownHeader = relaxedHeader(signature.line).replace(/([;:] ?b=)[^;]*/, '$1');
  const verifier = createVerify('RSA-SHA256');
  verifier.update(signed.join('') + ownHeader, 'binary');
  const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
  return verifier.verify(key, tags.b, 'base64') ? tags : 'bad signature';
}
