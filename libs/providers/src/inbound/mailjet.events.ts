import { DeliveryEventType, InboundWebhookKeys, InboundWebhookRequest, VendorDeliveryEvent, VendorEventBatch, VendorEventSource } from '@app/delivery';
import { dateOf, excerpt, hashKey, objectOf, parseJson, requireCredentials, requireKey, stringOf } from './inbound-support';

const TYPES: Record<string, DeliveryEventType> = {
  sent: 'delivered', // Mailjet's "sent": the receiving server accepted the message
  open: 'opened',
  click: 'clicked',
  bounce: 'bounced',
  blocked: 'dropped',
  spam: 'spam_report',
  unsub: 'unsubscribed',
};

/**
 * Mailjet event API: Mailjet signs nothing; the webhook URL carries credentials
 * (`https://user:password@host/...`), sent as HTTP Basic auth and compared with
 * configurations.inboundWebhookSigningKey (`user:password`). The body is one event or, with
 * grouping on, an array of them: `{event, time, MessageID, Message_GUID, email, CustomID, ...}`.
 * `CustomID` is our message id (sent with the message); `MessageID` is what the send answered,
 * an integer beyond JavaScript's safe range, so it is read as text. A `bounce` with `hard_bounce`
 * true is permanent. No event id: the key is a hash of event, message, recipient, time and link.
 */
export class MailjetEventSource implements VendorEventSource {
  readonly providerIds = ['mailjet'] as const;

  parse(request: InboundWebhookRequest, keys: InboundWebhookKeys, now: Date): VendorEventBatch {
    requireCredentials(request, requireKey(keys.signingKey, 'Mailjet webhook user:password'), 'Mailjet', { bearer: false });
    // Quote the big integer ids before parsing, so no digit is lost to floating point.
    const text = request.rawBody.toString('utf8').replace(/("(?:MessageID|mj_message_id)"\s*:\s*)(\d+)/g, '$1"$2"');
    const body = parseJson(Buffer.from(text));
    const items = Array.isArray(body) ? body : [body];
    const events: VendorDeliveryEvent[] = [];
    for (const item of items) {
      const event = objectOf(item);
      const name = stringOf(event.event) ?? '';
      const type = TYPES[name];
      const vendorId = stringOf(event.MessageID) ?? stringOf(event.mj_message_id);
      const customId = stringOf(event.CustomID);
      if (!type || (!vendorId && !customId)) continue;
      const recipient = stringOf(event.email);
      const reason = [stringOf(event.error_related_to), stringOf(event.error)].filter(Boolean).join(': ');
      events.push({
        key: hashKey('mailjet', name, vendorId ?? '', customId ?? '', recipient ?? '', stringOf(event.time) ?? '', stringOf(event.url) ?? ''),
        type,
        vendorMessageIds: [vendorId, stringOf(event.Message_GUID)].filter((id): id is string => id !== undefined),
        ...(customId ? { messageId: customId } : {}),
        ...(recipient ? { recipient } : {}),
        occurredAt: dateOf(event.time, now),
        permanent: name === 'bounce' && event.hard_bounce === true,
        ...(reason ? { reason } : {}),
        raw: excerpt(event, ['event', 'MessageID', 'CustomID', 'hard_bounce', 'blocked', 'error_related_to', 'error', 'url', 'source']),
      });
    }
    return { kind: 'events', events };
  }
}
