import { ProviderCheckResult, ProviderCredentials, ProviderErrorKind, SendContext, SendResult, SmsMessage } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { acceptedAt, bareNumber, checkFailed, numericOverrideOf, overrideOf, senderOf, vendorHttpFailure } from '../sms-fields';

export const MESSAGEBIRD_CREDENTIALS = {
  accessKey: required.string,
  from: required.string,
  baseUrl: optional.url,
};

const ORIGIN = 'https://rest.messagebird.com';

interface BirdError {
  code?: number;
  description?: string;
  parameter?: string | null;
}

/**
 * MessageBird's legacy SMS API (now Bird) over plain HTTP (the SDK is callback-based and fixes
 * its host): `POST /messages`, `Authorization: AccessKey <accessKey>`, JSON `{originator,
 * recipients[], body, reference}` with our message id as `reference` (it comes back in status
 * reports). 201 `{id, createdDatetime}`. Errors `{errors: [{code, description, parameter}]}`:
 * code 2 → auth, 9 about the recipients → invalid_recipient, 25 (no balance) → permanent.
 *
 * Overrides: `statusCallback` (MessageBird's `reportUrl`), `validity` (seconds), `datacoding`
 * (`plain`, `unicode` or `auto`).
 */
export class MessagebirdProvider implements ProviderAdapter<'sms'> {
  readonly id = 'messagebird';
  readonly channel = 'sms' as const;
  readonly credentialSchema = MESSAGEBIRD_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: SmsMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, MESSAGEBIRD_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      url: vendorUrl(config.baseUrl, ORIGIN, '/messages'),
      headers: { authorization: `AccessKey ${config.accessKey}` },
      json: {
        originator: senderOf(message, config),
        recipients: [bareNumber(message.to)],
        body: message.content,
        reference: context.idempotencyKey,
        reportUrl: overrideOf(context, 'statusCallback'),
        validity: numericOverrideOf(context, 'validity'),
        datacoding: overrideOf(context, 'datacoding'),
      },
      passthrough: context.passthrough,
      signal: context.signal,
    });
    if (response.status !== 201 && response.status !== 200) throw failure(response);
    const body = response.json<{ id?: string; createdDatetime?: string }>();
    return { id: body?.id, date: acceptedAt(body?.createdDatetime, response), raw: { status: response.status } };
  }

  /** `GET /balance`: the access key is valid (test keys pass too). */
  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, MESSAGEBIRD_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      method: 'GET',
      url: vendorUrl(config.baseUrl, ORIGIN, '/balance'),
      headers: { authorization: `AccessKey ${config.accessKey}` },
      signal,
    });
    return response.status === 200 ? { ok: true } : checkFailed('MessageBird', response, describe(errorsOf(response)));
  }
}

function errorsOf(response: VendorResponse): BirdError[] {
  return response.json<{ errors?: BirdError[] }>()?.errors ?? [];
}

function describe(errors: BirdError[]): string | undefined {
  return (
    errors
      .map((error) => error.description)
      .filter(Boolean)
      .join('; ') || undefined
  );
}

function kindOf(error: BirdError | undefined): ProviderErrorKind | undefined {
  switch (error?.code) {
    case 2:
      return 'auth';
    case 9: // missing or wrong parameter: the recipients' fault only when they are the parameter
      return error.parameter === 'recipients' || /recipient/i.test(error.description ?? '') ? 'invalid_recipient' : 'invalid_request';
    case 25: // not enough balance
      return 'permanent';
    case 99: // internal error
      return 'retryable';
    default:
      return undefined;
  }
}

function failure(response: VendorResponse) {
  const errors = errorsOf(response);
  return vendorHttpFailure(response, { text: describe(errors), code: errors[0]?.code, kind: kindOf(errors[0]) });
}
