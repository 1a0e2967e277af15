import { SendContext, SendResult } from '@app/delivery';
import { deepMerge } from '../http/vendor-http';
import { ProviderRuntime } from '../provider-runtime';
import { SIGNATURE_HEADER, signWebhookBody } from './webhook-signature';

/**
 * POSTs a JSON body to a tenant URL through the SSRF guard, signed with X-Novu-Signature (hex
 * HMAC-SHA256 of the exact bytes) when a secret is given, and carrying our message id as
 * Idempotency-Key. Any 2xx is success; the provider id is the response's `id` when it sends JSON
 * with one. `_passthrough` is merged before signing, so the signature covers what is sent.
 */
export async function sendSignedWebhook(
  runtime: ProviderRuntime,
  url: string,
  body: Record<string, unknown>,
  secretKey: string | undefined,
  context: SendContext,
): Promise<SendResult> {
  const passthrough = context.passthrough;
  const rawBody = JSON.stringify(passthrough?.body ? deepMerge(body, passthrough.body) : body);
  const response = await runtime.http.send({
    url,
    body: rawBody,
    headers: {
      'content-type': 'application/json',
      'idempotency-key': context.idempotencyKey,
      ...(secretKey ? { [SIGNATURE_HEADER]: signWebhookBody(rawBody, secretKey) } : {}),
      ...passthrough?.headers,
    },
    query: passthrough?.query,
    signal: context.signal,
  });
  const answer = response.json<{ id?: unknown }>();
  const id = answer && (typeof answer.id === 'string' || typeof answer.id === 'number') ? String(answer.id) : undefined;
  return { ...(id === undefined ? {} : { id }), date: new Date().toISOString(), raw: { status: response.status } };
}
