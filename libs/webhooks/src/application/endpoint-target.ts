import { Inject, Injectable } from '@nestjs/common';
import { InvalidWebhookUrlError } from '../domain/errors';
import { WEBHOOK_SENDER, WebhookSender } from '../ports/webhook-sender.port';

const MAX_URL_LENGTH = 2048;

/** Checks an endpoint URL when it is set: http(s), and a target the outbound network rules allow. */
@Injectable()
export class EndpointTarget {
  constructor(@Inject(WEBHOOK_SENDER) private readonly sender: WebhookSender) {}

  async check(url: string): Promise<void> {
    if (url.length > MAX_URL_LENGTH) throw new InvalidWebhookUrlError(`is longer than ${MAX_URL_LENGTH} characters`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InvalidWebhookUrlError('is not a valid URL');
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new InvalidWebhookUrlError('must use http:// or https://');
    try {
      await this.sender.checkTarget(url);
    } catch (error) {
      throw new InvalidWebhookUrlError(`is not a target webhooks may be sent to: ${(error as Error).message}`);
    }
  }
}
