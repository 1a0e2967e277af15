import { ProviderError, SendContext, SendResult } from '@app/delivery';
import { classifyHttpFailure, classifyNetworkError } from '../network/failure-classification';
import { guardedRequest } from '../network/guarded-http';
import { SIGNATURE_HEADER, signWebhookBody } from './webhook-signature';

export interface WebhookSenderOptions {
  /** ALLOW_PRIVATE_NETWORK_TARGETS. */
  allowPrivateNetworkTargets: boolean;
  /** Per-attempt ceiling, on top of the caller's signal. */
  timeoutMs?: number;
  userAgent?: string;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * POSTs a JSON body to a tenant URL, signed with X-Novu-Signature when a secret is given and
 * carrying our message id as Idempotency-Key, through the SSRF guard. Any 2xx is success; the
 * provider id is the response's `id` when it sends JSON with one.
 */
export async function sendSignedWebhook(
  url: string,
  body: Record<string, unknown>,
  secretKey: string | undefined,
  context: SendContext,
  options: WebhookSenderOptions,
): Promise<SendResult> {
  const rawBody = JSON.stringify(body);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'idempotency-key': context.idempotencyKey,
    'user-agent': options.userAgent ?? 'notify-service-webhook/1',
  };
  if (secretKey) headers[SIGNATURE_HEADER] = signWebhookBody(rawBody, secretKey);
  const signal = AbortSignal.any([context.signal, AbortSignal.timeout(options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS)]);

  let response;
  try {
    response = await guardedRequest({ url, method: 'POST', headers, body: rawBody, signal, allowPrivate: options.allowPrivateNetworkTargets });
  } catch (error) {
    throw classifyNetworkError(error);
  }
  if (response.status < 200 || response.status >= 300) {
    throw classifyHttpFailure(response.status, response.headers, response.body.slice(0, 2_000));
  }
  return { ...responseId(response.body), date: new Date().toISOString() };
}

function responseId(body: string): { id?: string } {
  try {
    const parsed = JSON.parse(body) as { id?: unknown };
    if (parsed && (typeof parsed.id === 'string' || typeof parsed.id === 'number')) return { id: String(parsed.id) };
  } catch {
    // not JSON: no id
  }
  return {};
}

export function requireString(config: Record<string, unknown>, key: string, providerId: string): string {
  const value = config[key];
  if (typeof value !== 'string' || value === '') {
    throw new ProviderError('invalid_request', `The ${providerId} integration needs credentials.${key}`, { raw: { missing: key } });
  }
  return value;
}
