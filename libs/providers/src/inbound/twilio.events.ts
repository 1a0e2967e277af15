import { createHmac } from 'node:crypto';
import { DeliveryEventType, InboundWebhookKeys, InboundWebhookRequest, InvalidWebhookSignatureError, VendorEventBatch, VendorEventSource } from '@app/delivery';
import { header, requireAuthToken, sameSecret, smsStatusEvent } from './inbound-support';

const TYPES: Record<string, DeliveryEventType> = { delivered: 'delivered', undelivered: 'undelivered', failed: 'failed' };
/** Error codes that say the number cannot receive SMS at all: unknown destination, landline, invalid, not mobile. */
const PERMANENT_ERRORS = new Set(['30005', '30006', '21211', '21614']);
/** The recipient replied STOP. */
const UNSUBSCRIBED_ERROR = '21610';

/** Twilio's request signature: base64 HMAC-SHA1 of the full URL followed by each POST parameter name and value, sorted by name. */
export function twilioSignature(authToken: string, url: string, params: URLSearchParams): string {
  const names = [...new Set(params.keys())].sort();
  let data = url;
  for (const name of names) for (const value of params.getAll(name)) data += name + value;
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/**
 * Twilio SMS status callbacks: form-urlencoded `MessageSid`, `MessageStatus`, `To`, `ErrorCode`,
 * signed in `X-Twilio-Signature` with the account's auth token (the integration's `token`
 * credential, or configurations.inboundWebhookSigningKey when set) over the public URL Twilio called
 * (API_PUBLIC_URL + path). Twilio signs no time, so a replay is caught by its key (sid + status)
 * alone. Only final states are events: delivered, undelivered, failed.
 */
export class TwilioEventSource implements VendorEventSource {
  readonly providerIds = ['twilio'] as const;

  parse(request: InboundWebhookRequest, keys: InboundWebhookKeys, now: Date): VendorEventBatch {
    const token = requireAuthToken(keys, 'Twilio');
    const given = header(request.headers, 'x-twilio-signature');
    if (!given) throw new InvalidWebhookSignatureError('The X-Twilio-Signature header is required');
    const params = new URLSearchParams(request.rawBody.toString('utf8'));
    if (!sameSecret(twilioSignature(token, request.url, params), given))
      throw new InvalidWebhookSignatureError('The X-Twilio-Signature does not match the URL and parameters');

    const status = params.get('MessageStatus') ?? params.get('SmsStatus') ?? '';
    const sid = params.get('MessageSid') ?? params.get('SmsSid');
    const errorCode = params.get('ErrorCode') ?? undefined;
    let type = TYPES[status];
    if (type && errorCode === UNSUBSCRIBED_ERROR) type = 'unsubscribed';
    if (!type || !sid) return { kind: 'events', events: [] };
    const event = smsStatusEvent({
      vendorId: sid,
      status,
      type,
      recipient: params.get('To') ?? undefined,
      occurredAt: now,
      permanent: errorCode !== undefined && PERMANENT_ERRORS.has(errorCode),
      reason: errorCode ? `Twilio error ${errorCode}${params.get('ErrorMessage') ? `: ${params.get('ErrorMessage')}` : ''}` : undefined,
      raw: { MessageSid: sid, MessageStatus: status, ...(errorCode ? { ErrorCode: errorCode } : {}) },
    });
    return { kind: 'events', events: [event] };
  }
}
