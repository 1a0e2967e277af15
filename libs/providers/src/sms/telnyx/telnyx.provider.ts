import { ProviderCheckResult, ProviderCredentials, ProviderErrorKind, SendContext, SendResult, SmsMessage } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { acceptedAt, checkFailed, overrideOf, senderOf, vendorHttpFailure } from '../sms-fields';

export const TELNYX_CREDENTIALS = {
  apiKey: required.string,
  /** The messaging profile the message is sent under. */
  messageProfileId: required.string,
  from: required.string,
  baseUrl: optional.url,
};

const ORIGIN = 'https://api.telnyx.com';

interface TelnyxError {
  code?: string;
  title?: string;
  detail?: string;
  source?: { pointer?: string };
}

/** Telnyx codes that blame the destination number. */
const RECIPIENT_CODES = new Set(['40310', '40001', '40008', '40300']);
/** General "bad phone number" codes, the recipient's fault when they point at `to`. */
const PHONE_CODES = new Set(['10002', '10016']);

/**
 * Telnyx v2 Messaging over plain HTTP (the SDK is 37 MB and retries by itself): `POST
 * /v2/messages`, Bearer apiKey, JSON `{from, to, text, messaging_profile_id}`. The answer
 * `{data: {id, received_at}}` gives the id and date. Errors `{errors: [{code, title, detail}]}`:
 * 10009/10010 → auth, 10011 → rate_limited, an invalid or unroutable `to` (40310, 40001, 40008,
 * 40300 opted out) → invalid_recipient. Telnyx takes no idempotency key for messages.
 *
 * Overrides: `statusCallback` (Telnyx's `webhook_url`), `webhookFailoverUrl`
 * (`webhook_failover_url`).
 */
export class TelnyxProvider implements ProviderAdapter<'sms'> {
  readonly id = 'telnyx';
  readonly channel = 'sms' as const;
  readonly credentialSchema = TELNYX_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: SmsMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, TELNYX_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      url: vendorUrl(config.baseUrl, ORIGIN, '/v2/messages'),
      headers: { authorization: `Bearer ${config.apiKey}` },
      json: {
        from: senderOf(message, config),
        to: message.to,
        text: message.content,
        messaging_profile_id: config.messageProfileId,
        webhook_url: overrideOf(context, 'statusCallback'),
        webhook_failover_url: overrideOf(context, 'webhookFailoverUrl'),
      },
      passthrough: context.passthrough,
      signal: context.signal,
    });
    if (response.status < 200 || response.status >= 300) throw failure(response);
    const data = response.json<{ data?: { id?: string; received_at?: string } }>()?.data;
    return { id: data?.id, date: acceptedAt(data?.received_at, response), raw: { status: response.status } };
  }

  /** `GET /v2/messaging_profiles/{messageProfileId}`: the key works and the profile exists. */
  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, TELNYX_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      method: 'GET',
      url: vendorUrl(config.baseUrl, ORIGIN, `/v2/messaging_profiles/${encodeURIComponent(config.messageProfileId)}`),
      headers: { authorization: `Bearer ${config.apiKey}` },
      signal,
    });
    return response.status === 200 ? { ok: true } : checkFailed('Telnyx', response, describe(errorsOf(response)));
  }
}

function errorsOf(response: VendorResponse): TelnyxError[] {
  return response.json<{ errors?: TelnyxError[] }>()?.errors ?? [];
}

function describe(errors: TelnyxError[]): string | undefined {
  return (
    errors
      .map((error) => [error.title, error.detail].filter(Boolean).join(': '))
      .filter(Boolean)
      .join('; ') || undefined
  );
}

function kindOf(error: TelnyxError | undefined): ProviderErrorKind | undefined {
  const code = error?.code ?? '';
  if (code === '10009' || code === '10010') return 'auth';
  if (code === '10011') return 'rate_limited';
  if (RECIPIENT_CODES.has(code) || (PHONE_CODES.has(code) && error?.source?.pointer === '/to')) return 'invalid_recipient';
  return undefined;
}

function failure(response: VendorResponse) {
  const errors = errorsOf(response);
  return vendorHttpFailure(response, { text: describe(errors), code: errors[0]?.code, kind: kindOf(errors[0]) });
}
