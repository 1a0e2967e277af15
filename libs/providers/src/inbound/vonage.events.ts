import { createHash, createHmac } from 'node:crypto';
import { DeliveryEventType, InboundWebhookKeys, InboundWebhookRequest, InvalidWebhookSignatureError, VendorEventBatch, VendorEventSource } from '@app/delivery';
import {
  dateOf,
  header,
  requestParams,
  requireFresh,
  requireKey,
  sameSecret,
  secondsToDate,
  sha256Hex,
  smsStatusEvent,
  stringOf,
  verifySharedSecretJwt,
} from './inbound-support';

const STATUSES: Record<string, DeliveryEventType> = { delivered: 'delivered', expired: 'undelivered', failed: 'undelivered', rejected: 'failed' };
/** DLR error codes that say the number cannot receive SMS: absent subscriber (permanent), illegal number. */
const PERMANENT_ERRORS = new Set(['3', '9']);
/** The digests Vonage can sign parameters with (the account's setting): `md5hash` is MD5 of the text and the secret, the others HMACs. */
const SIG_METHODS = ['md5hash', 'md5', 'sha1', 'sha256', 'sha512'] as const;

/** Vonage's `sig` over request parameters: `&name=value` for each but `sig`, sorted by name, `&` and `=` in values replaced by `_`. */
export function vonageSignature(params: URLSearchParams, secret: string, method: (typeof SIG_METHODS)[number]): string {
  const text = [...new Set(params.keys())]
    .filter((name) => name !== 'sig')
    .sort()
    .map((name) => `&${name}=${(params.get(name) ?? '').replace(/[&=]/g, '_')}`)
    .join('');
  return method === 'md5hash'
    ? createHash('md5')
        .update(text + secret)
        .digest('hex')
    : createHmac(method, secret).update(text).digest('hex');
}

/**
 * Vonage (Nexmo) SMS delivery receipts, as a form or JSON body (or a GET query), signed with the
 * account's signature secret (configurations.inboundWebhookSigningKey) in one of Vonage's two
 * ways: a JWT in `Authorization: Bearer` (HS256, `payload_hash` = SHA-256 of the body, which it
 * must have; `iat` within 5 minutes), or the SMS API's `sig` parameter with `timestamp` (signed webhooks on the
 * account; any of Vonage's digests). Unsigned receipts are refused. `messageId` is the send's
 * `message-id`, `client-ref` our message id; `status` delivered, expired, failed or rejected is an
 * event (accepted, buffered are not final). Vonage signs no event id: the key is message + status.
 */
export class VonageEventSource implements VendorEventSource {
  readonly providerIds = ['nexmo'] as const;

  parse(request: InboundWebhookRequest, keys: InboundWebhookKeys, now: Date): VendorEventBatch {
    const secret = requireKey(keys.signingKey, 'Vonage signature secret');
    const params = requestParams(request);
    const bearer = /^Bearer\s+(\S+)$/i.exec(header(request.headers, 'authorization') ?? '');
    if (bearer) {
      const claims = verifySharedSecretJwt(bearer[1], secret, 'Vonage webhook token', now);
      // The token covers the body only (not a query): a receipt must come as a body it hashes.
      const payloadHash = stringOf(claims.payload_hash)?.toLowerCase();
      if (payloadHash === undefined || request.rawBody.length === 0 || !sameSecret(payloadHash, sha256Hex(request.rawBody)))
        throw new InvalidWebhookSignatureError('The payload_hash of the Vonage webhook token does not match the body');
    } else {
      const sig = params.get('sig')?.toLowerCase();
      if (!sig) throw new InvalidWebhookSignatureError('The receipt is not signed: enable signed webhooks (a Bearer token or the sig parameter)');
      if (!SIG_METHODS.some((method) => sameSecret(vonageSignature(params, secret, method), sig)))
        throw new InvalidWebhookSignatureError('The Vonage sig parameter does not match the parameters');
      requireFresh(secondsToDate(params.get('timestamp')), now);
    }

    const status = params.get('status') ?? '';
    const type = STATUSES[status];
    const vendorId = params.get('messageId') ?? params.get('message-id') ?? undefined;
    if (!type || !vendorId) return { kind: 'events', events: [] };
    const errorCode = params.get('err-code') ?? undefined;
    const at = params.get('message-timestamp');
    const event = smsStatusEvent({
      vendorId,
      status,
      type,
      messageId: params.get('client-ref') ?? undefined,
      recipient: params.get('msisdn') ?? undefined,
      // Vonage writes `YYYY-MM-DD HH:MM:SS` in UTC.
      occurredAt: at ? dateOf(`${at.replace(' ', 'T')}Z`, now) : now,
      permanent: errorCode !== undefined && PERMANENT_ERRORS.has(errorCode),
      reason: errorCode && errorCode !== '0' ? `Vonage error ${errorCode}` : undefined,
      raw: { messageId: vendorId, status, ...(errorCode ? { 'err-code': errorCode } : {}) },
    });
    return { kind: 'events', events: [event] };
  }
}
