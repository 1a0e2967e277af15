import { GetAccountCommand, SendEmailCommand, SESv2Client, SESv2ServiceException } from '@aws-sdk/client-sesv2';
import type { NodeHttpHandler } from '@smithy/node-http-handler';
import MailComposer from 'nodemailer/lib/mail-composer';
import { EmailMessage, ProviderCheckResult, ProviderCredentials, ProviderError, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, ParsedCredentials, required } from '../../http/credential-schema';
import { vendorUrl } from '../../http/vendor-http';
import { classifyNetworkError } from '../../network/failure-classification';
import { assertVendorEndpoint, guardedAwsRequestHandler } from '../../network/guarded-agent';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { eventTags, senderOf } from '../email-fields';
import { mimeMailOptions } from '../mime-message';

export const SES_CREDENTIALS = {
  /** The access key id. */
  apiKey: required.string,
  /** The secret access key. */
  secretKey: required.string,
  region: required.string,
  from: required.string,
  senderName: required.string,
  /** An SES-compatible endpoint instead of email.{region}.amazonaws.com (VPC endpoint, tests). */
  baseUrl: optional.url,
};

type SesConfig = ParsedCredentials<typeof SES_CREDENTIALS>;

const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;
/** SES accepts tag names and values of ASCII letters, digits, `_`, `-`, `.` and `@` only. */
const TAG_TEXT = /^[A-Za-z0-9_.@-]{1,256}$/;

const THROTTLED = new Set(['TooManyRequestsException', 'ThrottlingException', 'Throttling', 'LimitExceededException']);
const BAD_CREDENTIALS = new Set([
  'AccessDeniedException',
  'AccessDenied',
  'UnrecognizedClientException',
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
  'InvalidSignatureException',
  'IncompleteSignature',
  'MissingAuthenticationToken',
  'ExpiredTokenException',
]);
/** The account or its identities may not send this: no retry and no other key will change it. */
const REFUSED = new Set(['MessageRejected', 'MailFromDomainNotVerifiedException', 'AccountSuspendedException', 'SendingPausedException']);

/**
 * Amazon SES v2 `SendEmail` (`POST /v2/email/outbound-emails`, SigV4) with `Content.Raw`: the
 * MIME message is built by nodemailer's composer, so cc, reply-to, custom headers and inline
 * attachments survive; the envelope (to, cc, bcc) goes in `Destination` since the MIME carries
 * no Bcc header. The SDK makes one attempt (`maxAttempts: 1`; the queue owns retries) through
 * the SSRF-guarded request handler; a `baseUrl` endpoint is checked before each call. Our
 * message id and tags become `EmailTags` (those SES would refuse are left out). The id is SES's
 * MessageId. Override keys: `configurationSetName` (→ ConfigurationSetName).
 * Errors: throttling → rate_limited, bad keys/signature → auth, MessageRejected (sandbox:
 * recipients not verified → invalid_recipient), unverified MAIL FROM, paused or suspended
 * account → permanent, other 4xx → invalid_request, 5xx → retryable.
 *
 * `check`: `GetAccount` — the keys sign, and the account may send.
 */
export class SesProvider implements ProviderAdapter<'email'> {
  readonly id = 'ses';
  readonly channel = 'email' as const;
  readonly credentialSchema = SES_CREDENTIALS;
  private readonly requestHandler: NodeHttpHandler;

  constructor(private readonly runtime: ProviderRuntime) {
    this.requestHandler = guardedAwsRequestHandler(runtime.allowPrivateNetworkTargets, runtime.timeoutMs, runtime.ca);
  }

  async send(message: EmailMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = this.parse(credentials);
    const sender = senderOf(message, config, this.id);
    const raw = await new MailComposer(mimeMailOptions(message, sender)).compile().build();
    const configurationSetName = context.overrides?.configurationSetName;
    const command = new SendEmailCommand({
      FromEmailAddress: sender.address,
      Destination: {
        ToAddresses: message.to,
        ...(message.cc?.length ? { CcAddresses: message.cc } : {}),
        ...(message.bcc?.length ? { BccAddresses: message.bcc } : {}),
      },
      Content: { Raw: { Data: raw } },
      EmailTags: Object.entries(eventTags(message))
        .filter(([name, value]) => TAG_TEXT.test(name) && TAG_TEXT.test(value))
        .map(([Name, Value]) => ({ Name, Value })),
      ...(typeof configurationSetName === 'string' ? { ConfigurationSetName: configurationSetName } : {}),
    });
    try {
      const client = await this.client(config);
      const answer = await client.send(command, { abortSignal: context.signal });
      return {
        id: answer.MessageId ?? message.id,
        date: new Date().toISOString(),
        raw: { status: answer.$metadata.httpStatusCode, requestId: answer.$metadata.requestId },
      };
    } catch (error) {
      throw sesFailure(error, [...message.to, ...(message.cc ?? []), ...(message.bcc ?? [])]);
    }
  }

  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = this.parse(credentials);
    try {
      const client = await this.client(config);
      const account = await client.send(new GetAccountCommand({}), { abortSignal: signal });
      return account.SendingEnabled === false
        ? { ok: false, message: `Sending is paused for this SES account (${account.EnforcementStatus ?? 'no enforcement status'})` }
        : { ok: true };
    } catch (error) {
      return { ok: false, message: sesFailure(error, []).message };
    }
  }

  private parse(credentials: ProviderCredentials): SesConfig {
    const config = parseCredentials(this.id, SES_CREDENTIALS, credentials);
    if (!REGION.test(config.region)) {
      throw new ProviderError('invalid_request', `The ses integration credentials.region must be an AWS region such as us-east-1, not "${config.region}"`, {
        raw: { invalid: ['region'] },
      });
    }
    return config;
  }

  private async client(config: SesConfig): Promise<SESv2Client> {
    // A scheme-less baseUrl gets https://, as for every vendor origin.
    const endpoint = config.baseUrl ? vendorUrl(config.baseUrl, config.baseUrl, '').replace(/\/+$/, '') : undefined;
    if (endpoint) await assertVendorEndpoint(endpoint, this.runtime.allowPrivateNetworkTargets);
    return new SESv2Client({
      region: config.region,
      credentials: { accessKeyId: config.apiKey, secretAccessKey: config.secretKey },
      maxAttempts: 1,
      requestHandler: this.requestHandler,
      ...(endpoint ? { endpoint } : {}),
    });
  }
}

/** An SDK failure as a ProviderError; `recipients` tells a sandbox refusal of recipients from one of the sender. */
function sesFailure(error: unknown, recipients: string[]): ProviderError {
  if (error instanceof ProviderError) return error;
  if (!(error instanceof SESv2ServiceException) && !(error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode) {
    // The SDK turns a throwable it does not recognise as an Error into "AWS SDK error wrapper
    // for Error: connect ECONNREFUSED …": recover the system error code from the text.
    const e = error as { code?: string; message?: string };
    const code = e?.code ?? /\b(E[A-Z]{4,}|UND_ERR_[A-Z_]+)\b/.exec(e?.message ?? '')?.[1];
    return classifyNetworkError(code && !e?.code ? Object.assign(new Error(e.message), { code }) : error);
  }
  const e = error as SESv2ServiceException;
  const status = e.$metadata?.httpStatusCode;
  const options = { providerCode: e.name, raw: { name: e.name, status, requestId: e.$metadata?.requestId }, cause: error, ...(status ? { status } : {}) };
  const message = `SES ${e.name}: ${e.message}`;
  if (THROTTLED.has(e.name) || status === 429) return new ProviderError('rate_limited', message, options);
  if (BAD_CREDENTIALS.has(e.name) || status === 401 || status === 403) return new ProviderError('auth', message, options);
  if (e.name === 'MessageRejected') {
    // Sandbox accounts refuse unverified identities and list them: recipients, or the sender.
    const identities = /failed the check in region [^:]+:\s*(.+)$/i
      .exec(e.message)?.[1]
      ?.split(/,\s*/)
      .map((identity) => identity.trim().toLowerCase());
    const wanted = new Set(recipients.map((recipient) => recipient.toLowerCase()));
    if (identities?.length && identities.every((identity) => wanted.has(identity))) {
      return new ProviderError('invalid_recipient', message, { ...options, target: identities.join(', ') });
    }
  }
  if (REFUSED.has(e.name)) return new ProviderError('permanent', message, options);
  if ((status !== undefined && status >= 500) || e.$fault === 'server') return new ProviderError('retryable', message, options);
  return new ProviderError('invalid_request', message, options);
}
