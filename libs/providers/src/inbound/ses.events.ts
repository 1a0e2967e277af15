import { X509Certificate, createVerify } from 'node:crypto';
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
import { dateOf, excerpt, objectOf, parseJson, requireFresh, requireKey, stringOf } from './inbound-support';

const NOTIFICATION_FIELDS = ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'];
const SUBSCRIPTION_FIELDS = ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];

/** The text Amazon SNS signs: `Name\nvalue\n` for each field of the message type, in this order (Subject only when present). */
export function snsStringToSign(message: Record<string, unknown>): string {
  const fields = message.Type === 'Notification' ? NOTIFICATION_FIELDS : SUBSCRIPTION_FIELDS;
  return fields
    .filter((field) => typeof message[field] === 'string')
    .map((field) => `${field}\n${message[field] as string}\n`)
    .join('');
}

const TYPES: Record<string, DeliveryEventType> = {
  Delivery: 'delivered',
  Open: 'opened',
  Click: 'clicked',
  Bounce: 'bounced',
  Complaint: 'spam_report',
  Reject: 'dropped',
  'Rendering Failure': 'failed',
  Subscription: 'unsubscribed',
};

/**
 * Amazon SES events through an Amazon SNS topic (HTTPS subscription). The SNS signature (version 1:
 * SHA1withRSA, 2: SHA256withRSA, base64) is checked against the SNS signing certificate configured
 * in configurations.inboundWebhookSigningKey (PEM): nothing is fetched from SigningCertURL. A
 * SubscriptionConfirmation is verified and its SubscribeURL handed on (the use case visits it); a Notification carries
 * the SES event (event publishing `eventType`, or feedback `notificationType`) in `Message`. The
 * message is `mail.messageId` (what SESv2 SendEmail answered); a bounce or complaint yields one event
 * per recipient; `bounceType` Permanent is a hard bounce.
 */
export class SesEventSource implements VendorEventSource {
  readonly providerIds = ['ses'] as const;

  parse(request: InboundWebhookRequest, keys: InboundWebhookKeys, now: Date): VendorEventBatch {
    const pem = requireKey(keys.signingKey, 'Amazon SNS signing certificate (PEM)');
    const envelope = objectOf(parseJson(request.rawBody));
    const signature = stringOf(envelope.Signature);
    if (!signature) throw new InvalidWebhookSignatureError('The SNS message carries no Signature');
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(pem);
    } catch {
      throw new InvalidWebhookSignatureError('The configured SNS signing certificate is not a PEM certificate');
    }
    const algorithm = envelope.SignatureVersion === '2' ? 'RSA-SHA256' : 'RSA-SHA1';
    const valid = createVerify(algorithm).update(snsStringToSign(envelope), 'utf8').verify(certificate.publicKey, signature, 'base64');
    if (!valid) throw new InvalidWebhookSignatureError('The SNS signature does not match the message');
    requireFresh(dateOf(envelope.Timestamp, new Date(NaN)), now);

    if (envelope.Type === 'SubscriptionConfirmation') {
      const confirmUrl = stringOf(envelope.SubscribeURL);
      if (!confirmUrl) throw new MalformedWebhookBodyError('The SNS SubscriptionConfirmation has no SubscribeURL');
      return { kind: 'subscription', confirmUrl, topic: stringOf(envelope.TopicArn) ?? '' };
    }
    if (envelope.Type !== 'Notification') return { kind: 'events', events: [] };
    const snsId = stringOf(envelope.MessageId) ?? '';
    let event: Record<string, unknown>;
    try {
      event = objectOf(JSON.parse(stringOf(envelope.Message) ?? ''));
    } catch {
      return { kind: 'events', events: [] }; // a topic message that is not an SES event
    }
    const name = stringOf(event.eventType) ?? stringOf(event.notificationType) ?? '';
    const type = TYPES[name];
    const mail = objectOf(event.mail);
    const messageId = stringOf(mail.messageId);
    if (!type || !messageId) return { kind: 'events', events: [] };

    const detail = objectOf(event[name === 'Rendering Failure' ? 'failure' : name.toLowerCase()]);
    const at = dateOf(detail.timestamp ?? mail.timestamp, now);
    const recipients = this.recipients(name, detail, mail);
    const permanent = name === 'Bounce' && detail.bounceType === 'Permanent';
    return {
      kind: 'events',
      events: recipients.map((recipient): VendorDeliveryEvent => ({
        key: recipients.length > 1 ? `${snsId}:${recipient.address}` : snsId,
        type,
        vendorMessageIds: [messageId],
        ...(recipient.address ? { recipient: recipient.address } : {}),
        occurredAt: at,
        permanent,
        ...(recipient.reason ? { reason: recipient.reason } : {}),
        raw: { eventType: name, messageId, ...excerpt(detail, ['bounceType', 'bounceSubType', 'complaintFeedbackType', 'reason', 'link', 'errorMessage']) },
      })),
    };
  }

  private recipients(name: string, detail: Record<string, unknown>, mail: Record<string, unknown>): { address?: string; reason?: string }[] {
    const list = (value: unknown) => (Array.isArray(value) ? value.map(objectOf) : []);
    if (name === 'Bounce') return list(detail.bouncedRecipients).map((r) => ({ address: stringOf(r.emailAddress), reason: stringOf(r.diagnosticCode) }));
    if (name === 'Complaint') return list(detail.complainedRecipients).map((r) => ({ address: stringOf(r.emailAddress) }));
    const destination = Array.isArray(mail.destination) ? stringOf(mail.destination[0]) : undefined;
    return [{ address: destination, reason: stringOf(detail.reason) ?? stringOf(detail.errorMessage) }];
  }
}
