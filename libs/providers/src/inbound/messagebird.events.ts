import { DeliveryEventType, InboundWebhookKeys, InboundWebhookRequest, InvalidWebhookSignatureError, VendorEventBatch, VendorEventSource } from '@app/delivery';
import { dateOf, header, requestParams, requireKey, sameSecret, sha256Hex, smsStatusEvent, stringOf, verifySharedSecretJwt } from './inbound-support';

export const MESSAGEBIRD_SIGNATURE_HEADER = 'messagebird-signature-jwt';

const STATUSES: Record<string, DeliveryEventType> = { delivered: 'delivered', delivery_failed: 'undelivered', expired: 'undelivered' };
/** Status error codes that say the number cannot receive SMS: unknown subscriber, illegal subscriber. */
const PERMANENT_ERRORS = new Set(['1', '9']);

/**
 * MessageBird SMS status reports: the report is the query of a GET (or a form or JSON body), and
 * the `MessageBird-Signature-JWT` header a JWT signed with the account's signing key
 * (configurations.inboundWebhookSigningKey; HS256): issuer MessageBird, a `jti`, `nbf`/`exp`, the
 * SHA-256 of the URL called (`url_hash`, so the query is covered; API_PUBLIC_URL + path when set)
 * and of the body (`payload_hash`, absent only for an empty body). `id` is the send's id,
 * `reference` our message id; delivered, delivery_failed and expired are events. The key is id +
 * status.
 */
export class MessageBirdEventSource implements VendorEventSource {
  readonly providerIds = ['messagebird'] as const;

  parse(request: InboundWebhookRequest, keys: InboundWebhookKeys, now: Date): VendorEventBatch {
    const key = requireKey(keys.signingKey, 'MessageBird signing key');
    const token = header(request.headers, MESSAGEBIRD_SIGNATURE_HEADER);
    if (!token) throw new InvalidWebhookSignatureError('The MessageBird-Signature-JWT header is required');
    const claims = verifySharedSecretJwt(token, key, 'MessageBird-Signature-JWT', now);
    if (claims.iss !== 'MessageBird' || !stringOf(claims.jti)) throw new InvalidWebhookSignatureError('The MessageBird-Signature-JWT lacks its issuer or jti');
    const urlHash = stringOf(claims.url_hash)?.toLowerCase();
    if (!urlHash || !sameSecret(urlHash, sha256Hex(request.url)))
      throw new InvalidWebhookSignatureError('The url_hash of the MessageBird-Signature-JWT does not match the URL called (set API_PUBLIC_URL)');
    const payloadHash = stringOf(claims.payload_hash)?.toLowerCase();
    if (payloadHash === undefined ? request.rawBody.length > 0 : !sameSecret(payloadHash, sha256Hex(request.rawBody)))
      throw new InvalidWebhookSignatureError('The payload_hash of the MessageBird-Signature-JWT does not match the body');

    const params = requestParams(request);
    const status = params.get('status') ?? '';
    const type = STATUSES[status];
    const vendorId = params.get('id') ?? undefined;
    if (!type || !vendorId) return { kind: 'events', events: [] };
    const errorCode = params.get('statusErrorCode') ?? undefined;
    const statusReason = params.get('statusReason') ?? undefined;
    const event = smsStatusEvent({
      vendorId,
      status,
      type,
      messageId: params.get('reference') ?? undefined,
      recipient: params.get('recipient') ?? undefined,
      occurredAt: dateOf(params.get('statusDatetime'), now),
      permanent: errorCode !== undefined && PERMANENT_ERRORS.has(errorCode),
      reason: [statusReason, errorCode ? `error ${errorCode}` : undefined].filter(Boolean).join(', '),
      raw: { id: vendorId, status, ...(statusReason ? { statusReason } : {}), ...(errorCode ? { statusErrorCode: errorCode } : {}) },
    });
    return { kind: 'events', events: [event] };
  }
}
