import { ProviderCheckResult, ProviderCredentials, ProviderErrorKind, SendContext, SendResult, SmsMessage } from '@app/delivery';
import { parseCredentials, required } from '../../http/credential-schema';
import { VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { acceptedAt, bareNumber, checkFailed, numericOverrideOf, overrideOf, senderOf, vendorHttpFailure, vendorRefusal } from '../sms-fields';

export const INFOBIP_SMS_CREDENTIALS = {
  /** The account's API host (`xxxx.api.infobip.com`), often given without a scheme. */
  baseUrl: required.url,
  apiKey: required.string,
  from: required.string,
};

const ORIGIN = 'https://api.infobip.com';

interface InfobipStatus {
  groupName?: string;
  name?: string;
  description?: string;
}

interface InfobipServiceException {
  messageId?: string;
  text?: string;
  validationErrors?: Record<string, string[]>;
}

/** The submit-time status groups that mean Infobip took the message. */
const TAKEN_GROUPS = new Set(['PENDING', 'DELIVERED', 'OK']);

/** Why Infobip refused a destination, from the status name. */
function refusalKind(status: InfobipStatus): ProviderErrorKind {
  const name = status.name ?? '';
  if (/DESTINATION|PREFIX_MISSING|MISSING_TO|DND|NETWORK/.test(name)) return 'invalid_recipient';
  if (name === 'REJECTED_FLOODING_FILTER') return 'rate_limited';
  if (name === 'REJECTED_SYSTEM_ERROR') return 'retryable';
  return 'permanent';
}

/**
 * Infobip SMS over plain HTTP: `POST {baseUrl}/sms/2/text/advanced`, `Authorization: App
 * <apiKey>`, JSON `{messages: [{from, destinations: [{to, messageId}], text}]}` with our message
 * id as Infobip's `messageId`. The integration's `baseUrl` is the account host (https:// added
 * when it has no scheme). Infobip answers 200 even when it refuses the destination: a status in
 * the REJECTED group is a failure (invalid_recipient when the status names the destination,
 * permanent otherwise), except REJECTED_DUPLICATE_MESSAGE_ID, which means an earlier attempt of
 * this very message was taken, so the send counts as done.
 *
 * Overrides: `statusCallback` (Infobip's `notifyUrl`), `validityPeriod` (minutes).
 */
export class InfobipSmsProvider implements ProviderAdapter<'sms'> {
  readonly id = 'infobip-sms';
  readonly channel = 'sms' as const;
  readonly credentialSchema = INFOBIP_SMS_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: SmsMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, INFOBIP_SMS_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      url: vendorUrl(config.baseUrl, ORIGIN, '/sms/2/text/advanced'),
      headers: { authorization: `App ${config.apiKey}` },
      json: {
        messages: [
          {
            from: senderOf(message, config),
            destinations: [{ to: bareNumber(message.to), messageId: context.idempotencyKey }],
            text: message.content,
            notifyUrl: overrideOf(context, 'statusCallback'),
            validityPeriod: numericOverrideOf(context, 'validityPeriod'),
          },
        ],
      },
      passthrough: context.passthrough,
      signal: context.signal,
    });
    if (response.status < 200 || response.status >= 300) throw failure(response);
    const body = response.json<{ bulkId?: string; messages?: { messageId?: string; status?: InfobipStatus }[] }>();
    const sent = body?.messages?.[0];
    const status = sent?.status ?? {};
    if (status.name === 'REJECTED_DUPLICATE_MESSAGE_ID') {
      return { id: context.idempotencyKey, date: acceptedAt(undefined, response), raw: { status: response.status, duplicate: true } };
    }
    if (!TAKEN_GROUPS.has(status.groupName ?? '')) {
      throw vendorRefusal('Infobip', refusalKind(status), response, {
        text: status.description ?? status.name ?? 'no status for the destination',
        code: status.name,
        target: message.to,
      });
    }
    return { id: sent?.messageId, date: acceptedAt(undefined, response), raw: { status: response.status, bulkId: body?.bulkId, messageStatus: status.name } };
  }

  /** `GET {baseUrl}/account/1/balance`: the key opens the account on that host. */
  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, INFOBIP_SMS_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      method: 'GET',
      url: vendorUrl(config.baseUrl, ORIGIN, '/account/1/balance'),
      headers: { authorization: `App ${config.apiKey}` },
      signal,
    });
    return response.status === 200 ? { ok: true } : checkFailed('Infobip', response, serviceException(response)?.text);
  }
}

function serviceException(response: VendorResponse): InfobipServiceException | undefined {
  return response.json<{ requestError?: { serviceException?: InfobipServiceException } }>()?.requestError?.serviceException;
}

function failure(response: VendorResponse) {
  const exception = serviceException(response);
  const fields = Object.entries(exception?.validationErrors ?? {}).map(([field, problems]) => `${field}: ${problems.join(', ')}`);
  const text = [exception?.text, ...fields].filter(Boolean).join('; ') || undefined;
  // A validation error only about the destination number is the recipient's fault.
  const recipientOnly =
    response.status === 400 && fields.length > 0 && Object.keys(exception!.validationErrors!).every((field) => /destinations(\[\d+\])?\.to$/.test(field));
  return vendorHttpFailure(response, { text, code: exception?.messageId, kind: recipientOnly ? 'invalid_recipient' : undefined });
}
