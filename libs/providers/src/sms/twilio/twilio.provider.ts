import { ProviderCheckResult, ProviderCredentials, ProviderErrorKind, SendContext, SendResult, SmsMessage } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { basicAuth, VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { acceptedAt, checkFailed, overrideOf, senderOf, vendorHttpFailure } from '../sms-fields';

export const TWILIO_CREDENTIALS = {
  accountSid: required.string,
  token: required.string,
  from: required.string,
  baseUrl: optional.url,
};

const ORIGIN = 'https://api.twilio.com';

/** Twilio error codes that say more than the HTTP status. */
const CODE_KINDS: Record<number, ProviderErrorKind> = {
  20003: 'auth', // authentication failed
  20005: 'auth', // account not active
  20429: 'rate_limited',
  14107: 'rate_limited', // SMS send rate limit exceeded
  21211: 'invalid_recipient', // invalid 'To' number
  21217: 'invalid_recipient', // 'To' does not look like a phone number
  21401: 'invalid_recipient', // invalid phone number
  21610: 'invalid_recipient', // the recipient replied STOP
  21612: 'invalid_recipient', // 'To' not reachable by SMS
  21614: 'invalid_recipient', // 'To' is not a mobile number
  21408: 'permanent', // sending to that region is not enabled on the account
};

/**
 * Twilio Programmable Messaging over plain HTTP (the SDK is 22 MB and fixes its host):
 * `POST /2010-04-01/Accounts/{accountSid}/Messages.json`, form `To`, `From`, `Body`, Basic
 * accountSid:token. 201 `{sid, date_created}`: the id is `sid`, the date `date_created`.
 * Errors `{code, message}` are refined by code (invalid 'To' → invalid_recipient, 20003 → auth,
 * 20429 → rate_limited). Twilio has no idempotency key for message creation.
 *
 * Overrides: `statusCallback` (Twilio's StatusCallback URL), `messagingServiceSid`.
 */
export class TwilioProvider implements ProviderAdapter<'sms'> {
  readonly id = 'twilio';
  readonly channel = 'sms' as const;
  readonly credentialSchema = TWILIO_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: SmsMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, TWILIO_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      url: vendorUrl(config.baseUrl, ORIGIN, `/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`),
      headers: { authorization: basicAuth(config.accountSid, config.token) },
      form: {
        To: message.to,
        From: senderOf(message, config),
        Body: message.content,
        StatusCallback: overrideOf(context, 'statusCallback'),
        MessagingServiceSid: overrideOf(context, 'messagingServiceSid'),
      },
      passthrough: context.passthrough,
      signal: context.signal,
    });
    if (response.status !== 201 && response.status !== 200) throw failure(response);
    const body = response.json<{ sid?: string; date_created?: string; status?: string }>();
    return { id: body?.sid, date: acceptedAt(body?.date_created, response), raw: { status: response.status, messageStatus: body?.status } };
  }

  /** `GET /2010-04-01/Accounts/{accountSid}.json`: the credentials open an active account. */
  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, TWILIO_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      method: 'GET',
      url: vendorUrl(config.baseUrl, ORIGIN, `/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}.json`),
      headers: { authorization: basicAuth(config.accountSid, config.token) },
      signal,
    });
    if (response.status !== 200) return checkFailed('Twilio', response, twilioError(response)?.message);
    const status = response.json<{ status?: string }>()?.status;
    return status === 'active' ? { ok: true } : { ok: false, message: `The Twilio account is ${status ?? 'not active'}` };
  }
}

function twilioError(response: VendorResponse): { code?: number; message?: string } | undefined {
  return response.json<{ code?: number; message?: string }>();
}

function failure(response: VendorResponse) {
  const error = twilioError(response);
  return vendorHttpFailure(response, { text: error?.message, code: error?.code, kind: error?.code === undefined ? undefined : CODE_KINDS[error.code] });
}
