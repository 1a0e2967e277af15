import { WebhookResponse, WebhookSender } from '@app/webhooks';
import { guardedRequest } from '../network/guarded-http';
import { assertPublicTarget } from '../network/ssrf-guard';

const RESPONSE_EXCERPT_BYTES = 4 * 1024;

/**
 * Outbound webhooks (message events, reply callbacks) through the same SSRF guard as chat and push
 * webhooks: no private or loopback target unless ALLOW_PRIVATE_NETWORK_TARGETS, cloud metadata never,
 * redirects re-checked. Never throws on a failed POST: the answer (or why none came) is the result.
 */
export class GuardedWebhookSender implements WebhookSender {
  constructor(private readonly allowPrivate: boolean) {}

  async post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<WebhookResponse> {
    try {
      const response = await guardedRequest({
        url,
        method: 'POST',
        headers: { 'user-agent': 'notify-service-webhooks', ...headers },
        body,
        signal: AbortSignal.timeout(timeoutMs),
        allowPrivate: this.allowPrivate,
        maxResponseBytes: RESPONSE_EXCERPT_BYTES,
      });
      return { statusCode: response.status, body: response.body };
    } catch (error) {
      const err = error as Error;
      return { error: err.name === 'TimeoutError' || err.name === 'AbortError' ? `No answer within ${timeoutMs} ms` : err.message };
    }
  }

  async checkTarget(url: string): Promise<void> {
    await assertPublicTarget(url, { allowPrivate: this.allowPrivate });
  }
}
