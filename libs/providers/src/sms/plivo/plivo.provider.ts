import { ProviderCheckResult, ProviderCredentials, SendContext, SendResult, SmsMessage } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { basicAuth, VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { acceptedAt, checkFailed, overrideOf, senderOf, vendorHttpFailure } from '../sms-fields';

export const PLIVO_CREDENTIALS = {
  /** Plivo's Auth ID. */
  accountSid: required.string,
  /** Plivo's Auth Token. */
  token: required.string,
  from: required.string,
  baseUrl: optional.url,
};

const ORIGIN = 'https://api.plivo.com';

/**
 * Plivo Message API over plain HTTP (the SDK fixes its host and pulls in `request`):
 * `POST /v1/Account/{authId}/Message/`, Basic authId:authToken, JSON `{src, dst, text}`.
 * 202 `{message_uuid: [..]}`: the id is the first uuid (a long text is still one message).
 * Errors `{error}`; a 400 about `dst` is invalid_recipient. Plivo has no idempotency key.
 *
 * Overrides: `statusCallback` (Plivo's `url` for delivery reports), `type` (`sms`/`mms`).
 */
export class PlivoProvider implements ProviderAdapter<'sms'> {
  readonly id = 'plivo';
  readonly channel = 'sms' as const;
  readonly credentialSchema = PLIVO_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: SmsMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, PLIVO_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      url: vendorUrl(config.baseUrl, ORIGIN, `/v1/Account/${encodeURIComponent(config.accountSid)}/Message/`),
      headers: { authorization: basicAuth(config.accountSid, config.token) },
      json: {
        src: senderOf(message, config),
        dst: message.to,
        text: message.content,
        url: overrideOf(context, 'statusCallback'),
        type: overrideOf(context, 'type'),
      },
      passthrough: context.passthrough,
      signal: context.signal,
    });
    if (response.status < 200 || response.status >= 300) throw failure(response);
    const uuids = response.json<{ message_uuid?: string[] }>()?.message_uuid ?? [];
    return { id: uuids[0], date: acceptedAt(undefined, response), raw: { status: response.status, message_uuid: uuids } };
  }

  /** `GET /v1/Account/{authId}/`: the Auth ID and token open the account. */
  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, PLIVO_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      method: 'GET',
      url: vendorUrl(config.baseUrl, ORIGIN, `/v1/Account/${encodeURIComponent(config.accountSid)}/`),
      headers: { authorization: basicAuth(config.accountSid, config.token) },
      signal,
    });
    return response.status === 200 ? { ok: true } : checkFailed('Plivo', response, errorText(response));
  }
}

function errorText(response: VendorResponse): string | undefined {
  return response.json<{ error?: string }>()?.error;
}

function failure(response: VendorResponse) {
  const text = errorText(response);
  const badDestination = response.status === 400 && !!text && /\bdst\b|destination/i.test(text);
  return vendorHttpFailure(response, { text, kind: badDestination ? 'invalid_recipient' : undefined });
}
