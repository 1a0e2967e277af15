import { createPublicKey, verify } from 'node:crypto';
import { DeliveryEventType, InboundWebhookKeys, InboundWebhookRequest, InvalidWebhookSignatureError, VendorEventBatch, VendorEventSource } from '@app/delivery';
import { dateOf, header, objectOf, parseJson, requireFresh, requireKey, secondsToDate, stringOf } from './inbound-support';

/** DER prefix of an Ed25519 SubjectPublicKeyInfo: Telnyx shows the bare 32-byte key in base64. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

const STATUSES: Record<string, DeliveryEventType> = { delivered: 'delivered', delivery_failed: 'undelivered', sending_failed: 'failed' };

/**
 * Telnyx messaging webhooks: Ed25519 signature (`telnyx-signature-ed25519`, base64) over
 * `${telnyx-timestamp}|${raw body}`, checked with the account's public key (base64, from the
 * Telnyx portal) in configurations.inboundWebhookSigningKey. `message.finalized` carries the final
 * status per recipient; `data.id` is unique per event, `data.payload.id` the send's message id.
 */
export class TelnyxEventSource implements VendorEventSource {
  readonly providerIds = ['telnyx'] as const;

  parse(request: InboundWebhookRequest, keys: InboundWebhookKeys, now: Date): VendorEventBatch {
    const key = requireKey(keys.signingKey, 'Telnyx public key');
    const signature = header(request.headers, 'telnyx-signature-ed25519');
    const timestamp = header(request.headers, 'telnyx-timestamp');
    if (!signature || !timestamp) throw new InvalidWebhookSignatureError('The telnyx-signature-ed25519 and telnyx-timestamp headers are required');
    let publicKey;
    try {
      const bytes = Buffer.from(key, 'base64');
      publicKey = createPublicKey({ key: bytes.length === 32 ? Buffer.concat([ED25519_SPKI_PREFIX, bytes]) : bytes, format: 'der', type: 'spki' });
    } catch {
      throw new InvalidWebhookSignatureError('The configured Telnyx public key is not a base64 Ed25519 key');
    }
    const signed = Buffer.concat([Buffer.from(`${timestamp}|`), request.rawBody]);
    if (!verify(null, signed, publicKey, Buffer.from(signature, 'base64')))
      throw new InvalidWebhookSignatureError('The Telnyx signature does not match the body');
    requireFresh(secondsToDate(timestamp), now);

    const data = objectOf(objectOf(parseJson(request.rawBody)).data);
    const payload = objectOf(data.payload);
    const eventId = stringOf(data.id);
    const messageId = stringOf(payload.id);
    if (data.event_type !== 'message.finalized' || !eventId || !messageId) return { kind: 'events', events: [] };
    const to = objectOf(Array.isArray(payload.to) ? payload.to[0] : undefined);
    const type = STATUSES[stringOf(to.status) ?? ''];
    if (!type) return { kind: 'events', events: [] };
    const errors = Array.isArray(payload.errors) ? payload.errors.map(objectOf) : [];
    const reason = errors.map((error) => [stringOf(error.code), stringOf(error.title)].filter(Boolean).join(' ')).join('; ');
    return {
      kind: 'events',
      events: [
        {
          key: eventId,
          type,
          vendorMessageIds: [messageId],
          ...(stringOf(to.phone_number) ? { recipient: stringOf(to.phone_number) } : {}),
          occurredAt: dateOf(payload.completed_at ?? data.occurred_at, now),
          permanent: errors.some((error) => ['40300', '40008'].includes(stringOf(error.code) ?? '')),
          ...(reason ? { reason } : {}),
          raw: { event_type: data.event_type, id: messageId, status: to.status, ...(reason ? { errors: reason.slice(0, 300) } : {}) },
        },
      ],
    };
  }
}
