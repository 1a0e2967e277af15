import { createHmac } from 'node:crypto';
import { DeliveryEventType, InboundWebhookKeys, InboundWebhookRequest, InvalidWebhookSignatureError, VendorEventBatch, VendorEventSource } from '@app/delivery';
import { header, requireAuthToken, requestParams, sameSecret, smsStatusEvent } from './inbound-support';

const STATUSES: Record<string, DeliveryEventType> = { delivered: 'delivered', undelivered: 'undelivered', failed: 'failed', rejected: 'failed' };
/** Error codes that say the number cannot receive SMS: invalid destination, destination permanently unavailable. */
const PERMANENT_ERRORS = new Set(['50', '70']);
/** The recipient replied STOP to the sender. */
const UNSUBSCRIBED_ERROR = '200';

/** `name=value` (or `namevalue`) for each parameter, names sorted, each name's values sorted. */
function sortedParams(params: URLSearchParams, separator: '=' | ''): string[] {
  return [...new Set(params.keys())].sort().flatMap((name) =>
    params
      .getAll(name)
      .sort()
      .map((value) => name + separator + value),
  );
}

/**
 * Plivo's V3 request signature: base64 HMAC-SHA256, keyed by the auth token, of the URL (scheme,
 * host, path), then `?` and its query sorted as `name=value&…` (present when there is a query or a
 * body), then for a POST `.` (when both are present) and the body's parameters sorted as
 * `namevalue…`, then `.` and the nonce.
 */
export function plivoSignatureV3(authToken: string, url: string, body: URLSearchParams, nonce: string): string {
  const parsed = new URL(url);
  const query = sortedParams(parsed.searchParams, '=').join('&');
  const posted = sortedParams(body, '').join('');
  let signed = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  if (query || posted) signed += `?${query}`;
  if (query && posted) signed += '.';
  signed += posted;
  return createHmac('sha256', authToken).update(`${signed}.${nonce}`, 'utf8').digest('base64');
}

/**
 * Plivo SMS status callbacks: a form `MessageUUID`, `Status`, `To`, `ErrorCode`, signed in
 * `X-Plivo-Signature-V3` (one or more signatures, comma-separated) with `X-Plivo-Signature-V3-Nonce`,
 * keyed by the auth token (the integration's `token` credential, or configurations.inboundWebhookSigningKey
 * when set), over the public URL Plivo called (API_PUBLIC_URL + path). Plivo signs no time: a replay
 * is caught by the key (uuid + status). Final states are events: delivered, undelivered, failed,
 * rejected; error 200 (the recipient sent STOP) is an unsubscribe.
 */
export class PlivoEventSource implements VendorEventSource {
  readonly providerIds = ['plivo'] as const;

  parse(request: InboundWebhookRequest, keys: InboundWebhookKeys, now: Date): VendorEventBatch {
    const token = requireAuthToken(keys, 'Plivo');
    const given = header(request.headers, 'x-plivo-signature-v3');
    const nonce = header(request.headers, 'x-plivo-signature-v3-nonce');
    if (!given || !nonce) throw new InvalidWebhookSignatureError('The X-Plivo-Signature-V3 and X-Plivo-Signature-V3-Nonce headers are required');
    const body = request.rawBody.length > 0 ? requestParams(request) : new URLSearchParams();
    const expected = plivoSignatureV3(token, request.url, body, nonce);
    if (!given.split(',').some((signature) => sameSecret(signature.trim(), expected)))
      throw new InvalidWebhookSignatureError('The X-Plivo-Signature-V3 does not match the URL and parameters');

    const params = requestParams(request);
    const status = params.get('Status') ?? '';
    const vendorId = params.get('MessageUUID') ?? undefined;
    const errorCode = params.get('ErrorCode') || undefined;
    let type = STATUSES[status];
    if (type && errorCode === UNSUBSCRIBED_ERROR) type = 'unsubscribed';
    if (!type || !vendorId) return { kind: 'events', events: [] };
    const event = smsStatusEvent({
      vendorId,
      status,
      type,
      recipient: params.get('To') ?? undefined,
      occurredAt: now,
      permanent: errorCode !== undefined && PERMANENT_ERRORS.has(errorCode),
      reason: errorCode && errorCode !== '000' ? `Plivo error ${errorCode}` : undefined,
      raw: { MessageUUID: vendorId, Status: status, ...(errorCode ? { ErrorCode: errorCode } : {}) },
    });
    return { kind: 'events', events: [event] };
  }
}
