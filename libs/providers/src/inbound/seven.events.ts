import { DeliveryEventType, InboundWebhookKeys, InboundWebhookRequest, VendorEventBatch, VendorEventSource } from '@app/delivery';
import { dateOf, objectOf, parseJson, requireCredentials, requireKey, smsStatusEvent, stringOf } from './inbound-support';

const STATUSES: Record<string, DeliveryEventType> = {
  DELIVERED: 'delivered',
  NOTDELIVERED: 'undelivered',
  EXPIRED: 'undelivered',
  REJECTED: 'failed',
  FAILED: 'failed',
};

/**
 * seven.io (formerly sms77) delivery-report webhooks: seven signs nothing here; the request carries
 * the key as a bearer token (or `user:password` of the webhook URL as Basic auth), compared with
 * configurations.inboundWebhookSigningKey. The body is `{webhook_event: "dlr", data: {msg_id,
 * status, timestamp}}`; `msg_id` is what the send answered. DELIVERED, NOTDELIVERED, EXPIRED,
 * REJECTED and FAILED are events; seven gives no reason with them, so none is permanent (no
 * suppression). A time without a zone is not trusted (the time of receipt is used). The key is
 * message + status.
 */
export class SevenEventSource implements VendorEventSource {
  readonly providerIds = ['sms77'] as const;

  parse(request: InboundWebhookRequest, keys: InboundWebhookKeys, now: Date): VendorEventBatch {
    requireCredentials(request, requireKey(keys.signingKey, 'seven webhook token'), 'seven', { bearer: true });
    const body = objectOf(parseJson(request.rawBody));
    const data = objectOf(body.data);
    const status = stringOf(data.status)?.toUpperCase() ?? '';
    const type = STATUSES[status];
    const vendorId = stringOf(data.msg_id);
    if (body.webhook_event !== 'dlr' || !type || !vendorId) return { kind: 'events', events: [] };
    const at = stringOf(data.timestamp);
    const zoned = at !== undefined && (/^\d+(\.\d+)?$/.test(at) || /(Z|[+-]\d\d:?\d\d)$/i.test(at));
    const event = smsStatusEvent({
      vendorId,
      status,
      type,
      occurredAt: zoned ? dateOf(at, now) : now,
      permanent: false,
      raw: { msg_id: vendorId, status },
    });
    return { kind: 'events', events: [event] };
  }
}
