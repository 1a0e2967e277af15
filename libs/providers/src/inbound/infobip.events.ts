import { DeliveryEventType, InboundWebhookKeys, InboundWebhookRequest, VendorDeliveryEvent, VendorEventBatch, VendorEventSource } from '@app/delivery';
import { dateOf, objectOf, parseJson, requireCredentials, requireKey, smsStatusEvent, stringOf } from './inbound-support';

/** Infobip's status groups that are final. */
const GROUPS: Record<string, DeliveryEventType> = { DELIVERED: 'delivered', UNDELIVERABLE: 'undelivered', EXPIRED: 'undelivered', REJECTED: 'failed' };

/**
 * Infobip SMS delivery reports: Infobip signs nothing here; the request carries the credentials of
 * the notify URL as HTTP Basic auth or a bearer token, compared with
 * configurations.inboundWebhookSigningKey (`user:password`, or the token). The body is
 * `{results: [{messageId, to, doneAt, status: {groupName, name, description}, error: {name,
 * description, permanent}}]}`; `messageId` is our message id (the adapter sets it at send, so it is
 * also the send's id). Status groups DELIVERED, UNDELIVERABLE, EXPIRED and REJECTED are events; an
 * error Infobip marks `permanent` means the number cannot receive. The key is message + status.
 */
export class InfobipEventSource implements VendorEventSource {
  readonly providerIds = ['infobip-sms'] as const;

  parse(request: InboundWebhookRequest, keys: InboundWebhookKeys, now: Date): VendorEventBatch {
    requireCredentials(request, requireKey(keys.signingKey, 'Infobip webhook user:password or token'), 'Infobip', { bearer: true });
    const results = objectOf(parseJson(request.rawBody)).results;
    const events: VendorDeliveryEvent[] = [];
    for (const item of Array.isArray(results) ? results : []) {
      const result = objectOf(item);
      const status = objectOf(result.status);
      const error = objectOf(result.error);
      const type = GROUPS[stringOf(status.groupName) ?? ''];
      const messageId = stringOf(result.messageId);
      if (!type || !messageId) continue;
      const errorName = stringOf(error.name);
      const failed = errorName !== undefined && errorName !== 'NO_ERROR';
      const statusName = stringOf(status.name) ?? stringOf(status.groupName)!;
      events.push(
        smsStatusEvent({
          vendorId: messageId,
          status: statusName,
          type,
          messageId,
          recipient: stringOf(result.to),
          occurredAt: dateOf(result.doneAt ?? result.sentAt, now),
          permanent: failed && error.permanent === true,
          reason: failed ? [errorName, stringOf(error.description)].filter(Boolean).join(': ') : stringOf(status.description),
          raw: { messageId, status: statusName, ...(failed ? { error: errorName } : {}) },
        }),
      );
    }
    return { kind: 'events', events };
  }
}
