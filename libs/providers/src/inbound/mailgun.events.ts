import { createHmac } from 'node:crypto';
import { DeliveryEventType, InboundWebhookKeys, InboundWebhookRequest, InvalidWebhookSignatureError, VendorEventBatch, VendorEventSource } from '@app/delivery';
import { dateOf, excerpt, idSpellings, objectOf, parseJson, requireFresh, requireKey, sameSecret, secondsToDate, stringOf } from './inbound-support';

const TYPES: Record<string, DeliveryEventType> = {
  delivered: 'delivered',
  opened: 'opened',
  clicked: 'clicked',
  complained: 'spam_report',
  unsubscribed: 'unsubscribed',
};

/**
 * Mailgun webhooks: JSON `{signature: {timestamp, token, signature}, "event-data": {...}}`, the
 * signature a hex HMAC-SHA256 of timestamp + token keyed by the HTTP webhook signing key
 * (configurations.inboundWebhookSigningKey). `event-data.id` is unique per event; the message is
 * `event-data.message.headers.message-id` (the send's `id` without angle brackets), and our own id is
 * `user-variables.id` (the send's `v:id`): the one that tells apart the messages of a batch send,
 * which share Mailgun's id. `failed` with
 * severity `permanent` is a hard bounce; `temporary` a failure Mailgun still retries.
 */
export class MailgunEventSource implements VendorEventSource {
  readonly providerIds = ['mailgun'] as const;

  parse(request: InboundWebhookRequest, keys: InboundWebhookKeys, now: Date): VendorEventBatch {
    const key = requireKey(keys.signingKey, 'Mailgun webhook signing key');
    const body = objectOf(parseJson(request.rawBody));
    const signature = objectOf(body.signature);
    const timestamp = stringOf(signature.timestamp);
    const token = stringOf(signature.token);
    const given = stringOf(signature.signature);
    if (!timestamp || !token || !given) throw new InvalidWebhookSignatureError('The body carries no Mailgun signature (timestamp, token, signature)');
    const expected = createHmac('sha256', key)
      .update(timestamp + token)
      .digest('hex');
    if (!sameSecret(expected, given.toLowerCase())) throw new InvalidWebhookSignatureError('The Mailgun signature does not match');
    requireFresh(secondsToDate(timestamp), now);

    const data = objectOf(body['event-data']);
    const name = stringOf(data.event) ?? '';
    const permanent = name === 'failed' && data.severity === 'permanent';
    const type: DeliveryEventType | undefined = name === 'failed' ? (permanent ? 'bounced' : 'failed') : TYPES[name];
    const id = stringOf(data.id);
    if (!type || !id) return { kind: 'events', events: [] };
    const status = objectOf(objectOf(data['delivery-status']));
    const messageId = stringOf(objectOf(data['user-variables']).id);
    const reason = stringOf(status.description) ?? stringOf(status.message) ?? stringOf(data.reason);
    return {
      kind: 'events',
      events: [
        {
          key: id,
          type,
          vendorMessageIds: idSpellings(stringOf(objectOf(objectOf(data.message).headers)['message-id'])),
          ...(messageId ? { messageId } : {}),
          ...(stringOf(data.recipient) ? { recipient: stringOf(data.recipient) } : {}),
          occurredAt: dateOf(data.timestamp, now),
          permanent,
          ...(reason ? { reason } : {}),
          raw: { ...excerpt(data, ['event', 'id', 'severity', 'reason', 'url']), ...(reason ? { description: reason.slice(0, 300) } : {}) },
        },
      ],
    };
  }
}
