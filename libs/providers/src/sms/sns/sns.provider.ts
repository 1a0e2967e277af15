import { GetSMSAttributesCommand, MessageAttributeValue, PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { ProviderCheckResult, ProviderCredentials, ProviderError, ProviderErrorKind, SendContext, SendResult, SmsMessage } from '@app/delivery';
import { optional, parseCredentials, ParsedCredentials, required } from '../../http/credential-schema';
import { classifyHttpFailure, classifyNetworkError } from '../../network/failure-classification';
import { assertVendorEndpoint, guardedAwsRequestHandler } from '../../network/guarded-agent';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { absoluteUrl, acceptedAt, overrideOf, senderOf } from '../sms-fields';

export const SNS_CREDENTIALS = {
  /** The access key id. */
  apiKey: required.string,
  /** The secret access key. */
  secretKey: required.string,
  region: required.string,
  from: optional.string,
  baseUrl: optional.url,
};

type SnsConfig = ParsedCredentials<typeof SNS_CREDENTIALS>;

/** SNS error codes (AWS Query `ErrorResponse`) by what they mean for this send. */
const CODE_KINDS: Record<string, ProviderErrorKind> = {
  Throttling: 'rate_limited',
  ThrottlingException: 'rate_limited',
  Throttled: 'rate_limited',
  ThrottledException: 'rate_limited',
  KMSThrottling: 'rate_limited',
  InvalidClientTokenId: 'auth',
  SignatureDoesNotMatch: 'auth',
  IncompleteSignature: 'auth',
  MissingAuthenticationToken: 'auth',
  UnrecognizedClientException: 'auth',
  ExpiredToken: 'auth',
  AuthorizationError: 'auth',
  AccessDenied: 'auth',
  AccessDeniedException: 'auth',
  InvalidSecurity: 'auth',
  OptInRequired: 'auth',
  InternalError: 'retryable',
  InternalFailure: 'retryable',
  ServiceUnavailable: 'retryable',
  EndpointDisabled: 'invalid_recipient',
};

/**
 * Amazon SNS direct-to-phone Publish through `@aws-sdk/client-sns` (SigV4 and the AWS Query/XML
 * protocol are worth the SDK): `PublishCommand {PhoneNumber, Message}`; the id is `MessageId`.
 * SDK retries are off (`maxAttempts: 1`: the queue owns retries) and its sockets go through the
 * SSRF-guarded request handler; `baseUrl`, when set, is the endpoint and is checked before each
 * call. The sender (`from` of the message, else the integration's) goes as a message attribute:
 * an E.164 number as `AWS.MM.SMS.OriginationNumber`, anything else as `AWS.SNS.SMS.SenderID`.
 * SNS has no idempotency key for Publish.
 *
 * Overrides: `smsType` (`Transactional` or `Promotional`, as `AWS.SNS.SMS.SMSType`).
 */
export class SnsProvider implements ProviderAdapter<'sms'> {
  readonly id = 'sns';
  readonly channel = 'sms' as const;
  readonly credentialSchema = SNS_CREDENTIALS;
  private readonly requestHandler;

  constructor(private readonly runtime: ProviderRuntime) {
    this.requestHandler = guardedAwsRequestHandler(runtime.allowPrivateNetworkTargets, runtime.timeoutMs, runtime.ca);
  }

  async send(message: SmsMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, SNS_CREDENTIALS, credentials);
    const attributes: Record<string, MessageAttributeValue> = {};
    const sender = senderOf(message, config);
    if (sender) attributes[/^\+\d+$/.test(sender) ? 'AWS.MM.SMS.OriginationNumber' : 'AWS.SNS.SMS.SenderID'] = { DataType: 'String', StringValue: sender };
    const smsType = overrideOf(context, 'smsType');
    if (smsType) attributes['AWS.SNS.SMS.SMSType'] = { DataType: 'String', StringValue: smsType };
    const output = await this.call(config, context.signal, (client, abortSignal) =>
      client.send(
        new PublishCommand({ PhoneNumber: message.to, Message: message.content, ...(Object.keys(attributes).length ? { MessageAttributes: attributes } : {}) }),
        { abortSignal },
      ),
    );
    return { id: output.MessageId, date: acceptedAt(undefined), raw: { status: output.$metadata.httpStatusCode, requestId: output.$metadata.requestId } };
  }

  /** `GetSMSAttributes`: the keys sign for the region and may read its SMS settings (sends nothing). */
  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, SNS_CREDENTIALS, credentials);
    try {
      await this.call(config, signal, (client, abortSignal) => client.send(new GetSMSAttributesCommand({}), { abortSignal }));
      return { ok: true };
    } catch (error) {
      if (error instanceof ProviderError) return { ok: false, message: vendorWords(error) };
      throw error;
    }
  }

  private async call<T>(config: SnsConfig, signal: AbortSignal, run: (client: SNSClient, abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    const endpoint = config.baseUrl ? absoluteUrl(config.baseUrl) : undefined;
    try {
      await assertVendorEndpoint(endpoint ?? `https://sns.${config.region}.amazonaws.com`, this.runtime.allowPrivateNetworkTargets);
      const client = new SNSClient({
        region: config.region,
        ...(endpoint ? { endpoint } : {}),
        credentials: { accessKeyId: config.apiKey, secretAccessKey: config.secretKey },
        maxAttempts: 1,
        requestHandler: this.requestHandler,
      });
      // Our ceiling on top of the caller's signal, as VendorHttp does for plain HTTP.
      return await run(client, AbortSignal.any([signal, AbortSignal.timeout(this.runtime.timeoutMs)]));
    } catch (error) {
      throw snsFailure(error);
    }
  }
}

interface AwsServiceError {
  /** The modeled exception (`InvalidParameterException`). */
  name: string;
  /** The code on the wire (`InvalidParameter`). */
  Code?: string;
  message: string;
  $fault?: 'client' | 'server';
  $metadata?: { httpStatusCode?: number; requestId?: string };
}

function isServiceError(error: unknown): error is AwsServiceError {
  return typeof error === 'object' && error !== null && '$fault' in error && typeof (error as AwsServiceError).$metadata?.httpStatusCode === 'number';
}

/** An SDK failure as a ProviderError: SNS's error code first, then the HTTP status; network errors as usual. */
function snsFailure(error: unknown): ProviderError {
  if (!isServiceError(error)) return classifyNetworkError(error);
  const status = error.$metadata!.httpStatusCode!;
  const code = error.Code ?? error.name;
  let kind = CODE_KINDS[code] ?? CODE_KINDS[error.name] ?? classifyHttpFailure(status).kind;
  // InvalidParameter names the field at fault; a bad PhoneNumber is the recipient's.
  if (/^InvalidParameter(Value)?$/.test(code) && /PhoneNumber/.test(error.message)) kind = 'invalid_recipient';
  return new ProviderError(kind, `SNS refused the request (${code}, HTTP ${status}): ${error.message}`, {
    status,
    providerCode: code,
    raw: { status, code, message: error.message, requestId: error.$metadata?.requestId },
  });
}

function vendorWords(error: ProviderError): string {
  const raw = error.raw as { message?: string } | undefined;
  return raw?.message ?? error.message;
}
