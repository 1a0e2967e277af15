import { createPublicKey, verify } from 'node:crypto';
import {
  DeliveryEventType,
  InboundWebhookKeys,
  InboundWebhookRequest,
  InvalidWebhookSignatureError,
  MalformedWebhookBodyError,
  VendorDeliveryEvent,
  VendorEventBatch,
  VendorEventSource,
} from '@app/delivery';
import { dateOf, excerpt, header, objectOf, parseJson, requireFresh, requireKey, secondsToDate, stringOf } from './inbound-support';

const TYPES: Record<string, DeliveryEventType> = {
  delivered: 'delivered',
  open: 'opened',
  click: 'clicked',
  bounce: 'bounced',
  dropped: 'dropped',
  spamreport: 'spam_report',
  unsubscribe: 'unsubscribed',
  group_unsubscribe: 'unsubscribed',
};

export const SENDGRID_SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
export const SENDGRID_TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';

/**
 * SendGrid Event Webhook (signed): ECDSA P-256 / SHA-256 over the timestamp header followed by the
 * raw body; the signature is base64 DER, the key the base64 public key SendGrid shows
 * (configurations.inboundWebhookSigningKey). The body is an array of events; `sg_event_id` is unique
 * per event; `id` is our message id (sent as custom_args), `sg_message_id` starts with the
 * X-Message-Id the send answered. A `bounce` of type `bounce` is permanent (type `blocked` is not).
 */
export class SendGridEventSource implements VendorEventSource {
  readonly providerIds = ['sendgrid'] as const;

  parse(request: InboundWebhookRequest, keys: InboundWebhookKeys, now: Date): VendorEventBatch {
    const key = requireKey(keys.signingKey, 'SendGrid verification key');
    const signature = header(request.headers, SENDGRID_SIGNATURE_HEADER);
    const timestamp = header(request.headers, SENDGRID_TIMESTAMP_HEADER);
    if (!signature || !timestamp) throw new InvalidWebhookSignatureError('The X-Twilio-Email-Event-Webhook-Signature and -Timestamp headers are required');
    let publicKey;
    try {
      publicKey = createPublicKey({ key: Buffer.from(key.replace(/-----[^-]+-----|\s/g, ''), 'base64'), format: 'der', type: 'spki' });
    } catch {
      throw new InvalidWebhookSignatureError('The configured SendGrid verification key is not a base64 public key');
    }
    const valid = verify(
      'sha256',
      Buffer.concat([Buffer.from(timestamp), request.rawBody]),
      { key: publicKey, dsaEncoding: 'der' },
      Buffer.from(signature, 'base64'),
    );
    if (!valid) throw new InvalidWebhookSignatureError('The SendGrid signature does not match the body');
    requireFresh(secondsToDate(timestamp), now);

    const body = parseJson(request.rawBody);
    if (!Array.isArray(body)) throw new MalformedWebhookBodyError('A SendGrid event webhook body is an array of events');
    const events: VendorDeliveryEvent[] = [];
    for (const item of body) {
      const event = objectOf(item);
      const type = TYPES[stringOf(event.event) ?? ''];
      const eventId = stringOf(event.sg_event_id);
      if (!type || !eventId) continue;
      const sgMessageId = stringOf(event.sg_message_id);
      events.push({
        key: eventId,
        type,
        vendorMessageIds: sgMessageId ? [...new Set([sgMessageId, sgMessageId.split('.')[0]])] : [],
        ...(stringOf(event.id) ? { messageId: stringOf(event.id) } : {}),
        ...(stringOf(event.email) ? { recipient: stringOf(event.email) } : {}),
        occurredAt: dateOf(event.timestamp, now),
        permanent: event.event === 'bounce' ? event.type !== 'blocked' : false,
        ...(stringOf(event.reason) ? { reason: stringOf(event.reason) } : {}),
        raw: excerpt(event, ['event', 'sg_event_id', 'sg_message_id', 'type', 'status', 'reason', 'url', 'bounce_classification']),
      });
    }
    return { kind: 'events', events };
  }
}
