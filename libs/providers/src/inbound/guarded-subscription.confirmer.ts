import { SubscriptionConfirmer } from '@app/delivery';
import { guardedRequest } from '../network/guarded-http';

const CONFIRM_TIMEOUT_MS = 10_000;

/**
 * Visits an SNS SubscribeURL through the same SSRF guard as chat and outbound webhooks: no private
 * or loopback target unless ALLOW_PRIVATE_NETWORK_TARGETS, cloud metadata never, redirects re-checked.
 * A 2xx answer confirms the subscription.
 */
export class GuardedSubscriptionConfirmer implements SubscriptionConfirmer {
  constructor(private readonly allowPrivate: boolean) {}

  async confirm(url: string): Promise<{ confirmed: boolean; error?: string }> {
    try {
      const response = await guardedRequest({
        url,
        method: 'GET',
        headers: { 'user-agent': 'notify-service-inbound-webhooks' },
        signal: AbortSignal.timeout(CONFIRM_TIMEOUT_MS),
        allowPrivate: this.allowPrivate,
        maxResponseBytes: 4 * 1024,
      });
      const confirmed = response.status >= 200 && response.status < 300;
      return confirmed ? { confirmed } : { confirmed, error: `HTTP ${response.status}` };
    } catch (error) {
      return { confirmed: false, error: (error as Error).message };
    }
  }
}
