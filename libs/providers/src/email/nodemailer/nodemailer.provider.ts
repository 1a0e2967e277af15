import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { createTransport } from 'nodemailer';
import type { NodemailerError, SMTPTransportOptions } from 'nodemailer';
import { EmailMessage, ProviderCheckResult, ProviderCredentials, ProviderError, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, ParsedCredentials, required } from '../../http/credential-schema';
import { classifyNetworkError } from '../../network/failure-classification';
import { isMetadataAddress, isNonPublicAddress, SsrfBlockedError } from '../../network/ssrf-guard';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { senderOf } from '../email-fields';
import { mimeMailOptions } from '../mime-message';

export const NODEMAILER_CREDENTIALS = {
  host: required.string,
  port: required.port,
  from: required.string,
  senderName: required.string,
  /** Implicit TLS (SMTPS, usually port 465). */
  secure: optional.boolean,
  /** Insist on STARTTLS; fail when the server does not offer it. */
  requireTls: optional.boolean,
  /** Never STARTTLS, even when offered. */
  ignoreTls: optional.boolean,
  /** Extra tls.connect options (ca, minVersion, rejectUnauthorized…); never the destination. */
  tlsOptions: optional.json,
  user: optional.string,
  password: optional.string,
  /** DKIM: the signing domain (d=). */
  domain: optional.string,
  /** DKIM: the key selector (s=), as Novu maps it. */
  accountSid: optional.string,
  /** DKIM: the private key (PEM). */
  secretKey: optional.pem,
};

type SmtpConfig = ParsedCredentials<typeof NODEMAILER_CREDENTIALS>;

/**
 * tls.connect options that would move the connection elsewhere (or hand it a socket): the
 * destination is the address the SSRF guard checked and nothing else.
 */
const DESTINATION_TLS_KEYS = new Set([
  'host',
  'hostname',
  'port',
  'path',
  'socket',
  'connection',
  'lookup',
  'servername',
  'localAddress',
  'localPort',
  'family',
  'hints',
  'autoSelectFamily',
  'proxy',
  'agent',
]);

/** Node's codes for a certificate that does not verify (unknown issuer, wrong name, expired…). */
const TLS_TRUST_FAILURE = /^CERT_|_CERT|^ERR_TLS_CERT|^DEPTH_ZERO|SELF_SIGNED|^UNABLE_TO_(VERIFY|GET_ISSUER)|^HOSTNAME_MISMATCH/;

/** RCPT TO answers that say the mailbox itself is wrong (no such user, not local, bad syntax). */
const BAD_MAILBOX_CODES = new Set([550, 551, 553]);

/**
 * Custom SMTP through nodemailer, one connection per send (the queue owns retries and pacing).
 * The host is resolved once and checked by the SSRF guard (cloud metadata never; private
 * addresses only with ALLOW_PRIVATE_NETWORK_TARGETS); the connection goes to that address while
 * TLS verification (SNI) and EHLO use the host name. `tlsOptions` applies to implicit TLS and to
 * STARTTLS alike; the runtime CAs are trusted unless it names its own `ca`. DKIM signs when
 * domain, accountSid (selector) and secretKey (private key) are all set. The result id is the
 * Message-ID, derived from our message id. Reads no override keys.
 *
 * `check`: nodemailer's verify — connect, TLS, EHLO, login — then QUIT without sending.
 */
export class NodemailerProvider implements ProviderAdapter<'email'> {
  readonly id = 'nodemailer';
  readonly channel = 'email' as const;
  readonly credentialSchema = NODEMAILER_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: EmailMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, NODEMAILER_CREDENTIALS, credentials);
    const sender = senderOf(message, config, this.id);
    let options: SMTPTransportOptions;
    try {
      options = await this.transportOptions(config);
    } catch (error) {
      throw smtpFailure(error);
    }
    const transport = createTransport(options);
    try {
      const info = await transport.sendMail({ ...mimeMailOptions(message, sender), signal: context.signal });
      return {
        id: info.messageId,
        date: new Date().toISOString(),
        raw: { response: info.response, accepted: info.accepted, ...(info.rejected.length ? { rejected: info.rejected } : {}) },
      };
    } catch (error) {
      throw smtpFailure(error);
    } finally {
      transport.close();
    }
  }

  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, NODEMAILER_CREDENTIALS, credentials);
    let options: SMTPTransportOptions;
    try {
      options = await this.transportOptions(config);
    } catch (error) {
      return { ok: false, message: `Cannot reach the SMTP host ${config.host}: ${(error as Error).message}` };
    }
    const transport = createTransport(options);
    try {
      await untilAborted(transport.verify(), signal);
      return { ok: true };
    } catch (error) {
      return { ok: false, message: smtpFailure(error).message };
    } finally {
      transport.close();
    }
  }

  private async transportOptions(config: SmtpConfig): Promise<SMTPTransportOptions> {
    const host = config.host.replace(/^\[(.*)\]$/, '$1');
    const address = await checkedAddress(host, this.runtime.allowPrivateNetworkTargets);
    const tls = safeTlsOptions(config.tlsOptions);
    const timeout = this.runtime.timeoutMs;
    const dkim =
      config.domain && config.accountSid && config.secretKey
        ? { domainName: config.domain, keySelector: config.accountSid, privateKey: config.secretKey }
        : undefined;
    return {
      host: address,
      port: config.port,
      secure: config.secure ?? false,
      requireTLS: config.requireTls ?? false,
      ignoreTLS: config.ignoreTls ?? false,
      // Certificates and EHLO name the host, not the address we dial (SNI takes no IP literals).
      name: host,
      ...(isIP(host) ? {} : { servername: host }),
      tls: { ...(this.runtime.ca && !tls.ca ? { ca: this.runtime.ca } : {}), ...tls },
      ...(config.user && config.password ? { auth: { user: config.user, pass: config.password } } : {}),
      ...(dkim ? { dkim } : {}),
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      dnsTimeout: timeout,
      disableFileAccess: true,
      disableUrlAccess: true,
    };
  }
}

/** The one address the connection may go to: resolved here, checked, and dialled as a literal. */
async function checkedAddress(host: string, allowPrivate: boolean): Promise<string> {
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'ENOTFOUND';
      throw new ProviderError('retryable', `SMTP host ${host} could not be resolved (${code})`, { raw: { code } });
    }
  }
  const metadata = addresses.find(isMetadataAddress);
  if (metadata) throw new SsrfBlockedError(`smtp://${host}`, `${host} resolves to the cloud metadata address ${metadata}`);
  const blocked = allowPrivate ? undefined : addresses.find(isNonPublicAddress);
  if (blocked) throw new SsrfBlockedError(`smtp://${host}`, `${host} resolves to the non-public address ${blocked}`);
  return addresses[0];
}

function safeTlsOptions(options: Record<string, unknown> | undefined): ConnectionOptions {
  return Object.fromEntries(Object.entries(options ?? {}).filter(([key]) => !DESTINATION_TLS_KEYS.has(key)));
}

/** nodemailer's verify takes no signal: give up waiting (and let the finally close it) on abort. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(Object.assign(new Error('The SMTP check timed out or was aborted'), { code: 'ETIMEDOUT' }));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * An SMTP failure as a ProviderError: 4xx replies retryable, 5xx permanent (550/551/553 on RCPT
 * TO: invalid recipient), 535 and failed logins auth, connection trouble retryable, TLS
 * certificate trouble permanent. The message is the server's own reply.
 */
function smtpFailure(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof SsrfBlockedError) return classifyNetworkError(error);
  const e = (error ?? {}) as NodemailerError;
  const raw = {
    ...(e.code ? { code: e.code } : {}),
    ...(e.command ? { command: e.command } : {}),
    ...(e.response ? { response: e.response } : {}),
    ...(e.rejected?.length ? { rejected: e.rejected } : {}),
  };
  const options = { raw, cause: error, ...(e.responseCode ? { providerCode: String(e.responseCode) } : {}) };
  const text = e.message ?? String(error);
  const code = e.responseCode;
  if (e.code === 'ETLS') {
    // STARTTLS refused or failed: the server's configuration, not a passing condition.
    const trust = TLS_TRUST_FAILURE.test(e.originalCode ?? '');
    return new ProviderError('permanent', `SMTP ${trust ? 'TLS verification' : 'STARTTLS'} failed: ${text}`, options);
  }
  if (e.code === 'EAUTH' || e.code === 'ENOAUTH' || code === 535 || code === 534) {
    return new ProviderError('auth', `SMTP login failed: ${text}`, options);
  }
  if (code && code >= 400 && code < 500) return new ProviderError('retryable', `SMTP server deferred the message: ${text}`, options);
  if (code && code >= 500) {
    if (e.command === 'RCPT TO' && BAD_MAILBOX_CODES.has(code)) {
      return new ProviderError('invalid_recipient', `SMTP server refused the recipient: ${text}`, {
        ...options,
        ...(e.rejected?.length ? { target: e.rejected.join(', ') } : {}),
      });
    }
    return new ProviderError('permanent', `SMTP server refused the message: ${text}`, options);
  }
  if (e.name === 'AbortError' || e.code === 'EABORT') {
    return new ProviderError('retryable', 'SMTP send timed out or was aborted', options);
  }
  if (e.code === 'ESOCKET' || e.code === 'ECONNECTION' || e.code === 'ETIMEDOUT' || e.code === 'EDNS') {
    // A certificate the runtime does not trust will not be trusted on the next attempt either.
    if (TLS_TRUST_FAILURE.test(e.originalCode ?? '')) return new ProviderError('permanent', `SMTP TLS verification failed: ${text}`, options);
    return new ProviderError('retryable', `SMTP connection failed: ${text}`, options);
  }
  return new ProviderError('permanent', `SMTP send failed: ${text}`, options);
}
