import { createHmac } from 'node:crypto';
import { DeliveryEventType, InboundWebhookKeys, InboundWebhookRequest, InvalidWebhookSignatureError, VendorEventBatch, VendorEventSource } from '@app/delivery';
import { dateOf, excerpt, header, objectOf, parseJson, requireFresh, requireKey, sameSecret, secondsToDate, stringOf } from './inbound-support';

/**
 * The Svix signing scheme (Resend's webhooks): `svix-signature` holds space-separated `v1,<base64>`
 * HMAC-SHA256 signatures of `${svix-id}.${svix-timestamp}.${raw body}` keyed by the base64 part of
 * the `whsec_` secret. Throws 401 unless one of them matches and the timestamp is within 5 minutes.
 * Returns the svix-id, unique per message (the vendor's retries keep it).
 */
export function verifySvix(request: InboundWebhookRequest, secret: string, now: Date): string {
  const id = header(request.headers, 'svix-id') ?? header(request.headers, 'webhook-id');
  const timestamp = header(request.headers, 'svix-timestamp') ?? header(request.headers, 'webhook-timestamp');
  const signatures = header(request.headers, 'svix-signature') ?? header(request.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new InvalidWebhookSignatureError('The svix-id, svix-timestamp and svix-signature headers are required');
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(request.rawBody).digest('base64');
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    return version === 'v1' && signature !== undefined && sameSecret(signature, expected);
  });
  if (!matches) throw new InvalidWebhookSignatureError('No svix-signature matches the body');
  requireFresh(secondsToDate(timestamp), now);
  return id;
}

const RESEND_TYPES: Record<string, DeliveryEventType> = {
  'email.delivered': 'delivered',
  'email.opened': 'opened',
  'email.clicked': 'clicked',
  'email.bounced': 'bounced',
  'email.complained': 'spam_report',
  'email.failed': 'failed',
};

/**
 * Resend webhooks (Svix-signed, `whsec_` secret in configurations.inboundWebhookSigningKey): one
 * event `{type, created_at, data: {email_id, to[], bounce?: {type, message}}}` per request; the
 * message is `data.email_id` (the send's id). A bounce of type `Permanent` is a hard bounce.
 */
export class ResendEventSource implements VendorEventSource {
  readonly providerIds = ['resend'] as const;

  parse(request: InboundWebhookRequest, keys: InboundWebhookKeys, now: Date): VendorEventBatch {
    const svixId = verifySvix(request, requireKey(keys.signingKey, 'Resend webhook signing secret (whsec_…)'), now);
    const body = objectOf(parseJson(request.rawBody));
    const data = objectOf(body.data);
    const type = RESEND_TYPES[stringOf(body.type) ?? ''];
    const emailId = stringOf(data.email_id);
    if (!type || !emailId) return { kind: 'events', events: [] };
    const bounce = objectOf(data.bounce);
    const to = Array.isArray(data.to) ? stringOf(data.to[0]) : stringOf(data.to);
    const reason = stringOf(bounce.message) ?? stringOf(objectOf(data.failed).reason);
    return {
      kind: 'events',
      events: [
        {
          key: svixId,
          type,
          vendorMessageIds: [emailId],
          ...(to ? { recipient: to } : {}),
          occurredAt: dateOf(body.created_at, now),
          permanent: type === 'bounced' && /^permanent$/i.test(stringOf(bounce.type) ?? ''),
          ...(reason ? { reason } : {}),
          raw: { type: body.type, email_id: emailId, ...excerpt(bounce, ['type', 'subType', 'message']) },
        },
      ],
    };
  }
}
