import { DeliveryEventType, InboundWebhookKeys, InboundWebhookRequest, VendorDeliveryEvent, VendorEventBatch, VendorEventSource } from '@app/delivery';
import { dateOf, excerpt, hashKey, idSpellings, objectOf, parseJson, requireCredentials, requireKey, stringOf } from './inbound-support';

const TYPES: Record<string, DeliveryEventType> = {
  delivered: 'delivered',
  opened: 'opened',
  unique_opened: 'opened',
  click: 'clicked',
  hard_bounce: 'bounced',
  soft_bounce: 'bounced',
  invalid_email: 'bounced',
  blocked: 'dropped',
  spam: 'spam_report',
  complaint: 'spam_report',
  unsubscribed: 'unsubscribed',
  error: 'failed',
};
/** The events that say the address cannot receive mail. */
const PERMANENT = new Set(['hard_bounce', 'invalid_email']);

/**
 * Brevo (ex-Sendinblue) transactional webhooks: Brevo signs nothing; the webhook carries either
 * the credentials of its URL as HTTP Basic auth or a bearer token, compared with
 * configurations.inboundWebhookSigningKey (`user:password`, or the token). The body is one event or
 * an array of them (batched webhooks): `{event, email, "message-id", ts_event, "X-Mailin-custom",
 * reason, link}`. `message-id` is what the send answered; `X-Mailin-custom` carries our message id
 * (`id:<id>`, set at send). hard_bounce and invalid_email are permanent. No event id: the key is
 * a hash of event, message, recipient, time and link.
 */
export class BrevoEventSource implements VendorEventSource {
  readonly providerIds = ['sendinblue'] as const;

  parse(request: InboundWebhookRequest, keys: InboundWebhookKeys, now: Date): VendorEventBatch {
    requireCredentials(request, requireKey(keys.signingKey, 'Brevo webhook user:password or token'), 'Brevo', { bearer: true });
    const body = parseJson(request.rawBody);
    const events: VendorDeliveryEvent[] = [];
    for (const item of Array.isArray(body) ? body : [body]) {
      const event = objectOf(item);
      const name = stringOf(event.event) ?? '';
      const type = TYPES[name];
      const vendorId = stringOf(event['message-id']);
      const ourId = ourMessageId(stringOf(event['X-Mailin-custom']));
      if (!type || (!vendorId && !ourId)) continue;
      const recipient = stringOf(event.email);
      const at = event.ts_event ?? event.ts ?? (typeof event.ts_epoch === 'number' ? event.ts_epoch / 1000 : undefined);
      const reason = stringOf(event.reason);
      events.push({
        key: hashKey('brevo', name, vendorId ?? '', ourId ?? '', recipient ?? '', stringOf(at) ?? '', stringOf(event.link) ?? ''),
        type,
        vendorMessageIds: idSpellings(vendorId),
        ...(ourId ? { messageId: ourId } : {}),
        ...(recipient ? { recipient } : {}),
        occurredAt: dateOf(at, now),
        permanent: PERMANENT.has(name),
        ...(reason ? { reason } : {}),
        raw: excerpt(event, ['event', 'message-id', 'reason', 'link', 'tag']),
      });
    }
    return { kind: 'events', events };
  }
}

/** Our message id in X-Mailin-custom (`name:value|name:value`, as the adapter wrote it). */
function ourMessageId(custom: string | undefined): string | undefined {
  const entry = custom?.split('|').find((part) => part.startsWith('id:'));
  return entry ? entry.slice('id:'.length) || undefined : undefined;
}
