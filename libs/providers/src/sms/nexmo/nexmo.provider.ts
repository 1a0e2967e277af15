import { ProviderCheckResult, ProviderCredentials, ProviderErrorKind, SendContext, SendResult, SmsMessage } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { basicAuth, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { acceptedAt, bareNumber, checkFailed, overrideOf, senderOf, vendorHttpFailure, vendorRefusal } from '../sms-fields';

export const NEXMO_CREDENTIALS = {
  apiKey: required.string,
  secretKey: required.string,
  from: required.string,
  baseUrl: optional.url,
};

const ORIGIN = 'https://rest.nexmo.com';

interface VonageMessage {
  status?: string;
  'message-id'?: string;
  'error-text'?: string;
}

/** Vonage SMS statuses (all answered with HTTP 200), by what a retry or another attempt can do. */
function statusKind(status: string, errorText: string): ProviderErrorKind {
  switch (status) {
    case '1': // throttled
    case '10': // too many existing binds: back off and retry
      return 'rate_limited';
    case '5': // internal error
      return 'retryable';
    case '3': // invalid parameters: blame the recipient only when Vonage names it
      return /\bto\b/i.test(errorText) ? 'invalid_recipient' : 'invalid_request';
    case '6': // unroutable, e.g. an unknown number prefix
    case '7': // number barred
    case '33': // number de-activated
      return 'invalid_recipient';
    case '4': // invalid credentials
    case '14': // invalid signature
      return 'auth';
    case '2': // missing parameters
    case '12': // message too long
    case '15': // invalid sender address
      return 'invalid_request';
    default: // 8 account barred, 9 out of credit, 29 non-whitelisted destination, …
      return 'permanent';
  }
}

/**
 * Vonage (Nexmo) SMS API: `POST /sms/json`, Basic apiKey:secretKey, JSON `{to, from, text,
 * client-ref}` with `to` (and a numeric `from`) as bare digits. Vonage answers HTTP 200 even when
 * it refuses: every `messages[].status` must be "0" (a long text is split into several). The id
 * is `messages[0]['message-id']`; our message id travels as `client-ref` and comes back in
 * delivery receipts.
 *
 * Overrides: `statusCallback` (Vonage's `callback` URL for delivery receipts), `type`
 * (`unicode` for non-GSM text).
 */
export class NexmoProvider implements ProviderAdapter<'sms'> {
  readonly id = 'nexmo';
  readonly channel = 'sms' as const;
  readonly credentialSchema = NEXMO_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: SmsMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, NEXMO_CREDENTIALS, credentials);
    const from = senderOf(message, config);
    const response = await this.runtime.http.request({
      url: vendorUrl(config.baseUrl, ORIGIN, '/sms/json'),
      headers: { authorization: basicAuth(config.apiKey, config.secretKey) },
      json: {
        to: bareNumber(message.to),
        from: /^\+\d+$/.test(from) ? bareNumber(from) : from,
        text: message.content,
        'client-ref': context.idempotencyKey,
        callback: overrideOf(context, 'statusCallback'),
        type: overrideOf(context, 'type'),
      },
      passthrough: context.passthrough,
      signal: context.signal,
    });
    if (response.status !== 200) throw vendorHttpFailure(response);
    const messages = response.json<{ messages?: VonageMessage[] }>()?.messages ?? [];
    const refusal = messages.find((part) => part.status !== '0');
    if (refusal || messages.length === 0) {
      const status = refusal?.status ?? '';
      const text = refusal?.['error-text'] ?? 'no message was accepted';
      throw vendorRefusal('Vonage', statusKind(status, text), response, { text, code: status || undefined, target: message.to });
    }
    return { id: messages[0]['message-id'], date: acceptedAt(undefined, response), raw: { status: response.status, parts: messages.length } };
  }

  /** `GET /account/get-balance` with the key and secret: they open the account. */
  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, NEXMO_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      method: 'GET',
      url: vendorUrl(config.baseUrl, ORIGIN, '/account/get-balance'),
      headers: { authorization: basicAuth(config.apiKey, config.secretKey) },
      signal,
    });
    if (response.status === 200) return { ok: true };
    return checkFailed('Vonage', response, response.json<{ 'error-code-label'?: string }>()?.['error-code-label']);
  }
}
