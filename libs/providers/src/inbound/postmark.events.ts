import { DeliveryEventType, InboundWebhookKeys, InboundWebhookRequest, VendorEventBatch, VendorEventSource } from '@app/delivery';
import { dateOf, excerpt, hashKey, objectOf, parseJson, requireCredentials, requireKey, stringOf } from './inbound-support';

const HARD_BOUNCES = new Set(['HardBounce', 'BadEmailAddress', 'ManuallyDeactivated', 'SpamNotification']);

/**
 * Postmark webhooks: Postmark signs nothing; it sends the credentials of the webhook URL as HTTP
 * Basic auth (`https://user:password@host/...`). configurations.inboundWebhookSigningKey holds
 * `user:password`, compared in constant time. One record per request, by `RecordType`: Delivery,
 * Bounce (`Type` HardBounce… is permanent), SpamComplaint, Open, Click, SubscriptionChange
 * (`SuppressSending` true = unsubscribed). The message is `MessageID` (what the send answered). No
 * event id: the key is a hash of the record type, message, recipient and time (a replay has the same).
 */
export class PostmarkEventSource implements VendorEventSource {
  readonly providerIds = ['postmark'] as const;

  parse(request: InboundWebhookRequest, keys: InboundWebhookKeys, now: Date): VendorEventBatch {
    requireCredentials(request, requireKey(keys.signingKey, 'Postmark webhook user:password'), 'Postmark', { bearer: false });
    const record = objectOf(parseJson(request.rawBody));
    const recordType = stringOf(record.RecordType) ?? '';
    const messageId = stringOf(record.MessageID);
    let type: DeliveryEventType | undefined;
    let permanent = false;
    if (recordType === 'Delivery') type = 'delivered';
    else if (recordType === 'Open') type = 'opened';
    else if (recordType === 'Click') type = 'clicked';
    else if (recordType === 'SpamComplaint') type = 'spam_report';
    else if (recordType === 'Bounce') {
      type = 'bounced';
      permanent = HARD_BOUNCES.has(stringOf(record.Type) ?? '');
    } else if (recordType === 'SubscriptionChange' && record.SuppressSending === true) type = 'unsubscribed';
    if (!type || !messageId) return { kind: 'events', events: [] };
    const recipient = stringOf(record.Recipient) ?? stringOf(record.Email);
    const at = record.DeliveredAt ?? record.BouncedAt ?? record.ReceivedAt ?? record.ChangedAt;
    const reason = stringOf(record.Description) ?? stringOf(record.Details);
    return {
      kind: 'events',
      events: [
        {
          key: hashKey(recordType, messageId, recipient ?? '', stringOf(at) ?? '', stringOf(record.ID) ?? '', stringOf(record.OriginalLink) ?? ''),
          type,
          vendorMessageIds: [messageId],
          ...(recipient ? { recipient } : {}),
          occurredAt: dateOf(at, now),
          permanent,
          ...(reason ? { reason } : {}),
          raw: excerpt(record, ['RecordType', 'MessageID', 'Type', 'TypeCode', 'Description', 'OriginalLink', 'SuppressionReason']),
        },
      ],
    };
  }
}
