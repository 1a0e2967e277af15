import { EmailMessage, ProviderCredentials, SendContext, SendResult } from '@app/delivery';
import { parseCredentials, required } from '../../http/credential-schema';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { sendSignedWebhook } from '../../webhooks/signed-webhook.sender';
import { senderOf } from '../email-fields';

export const EMAIL_WEBHOOK_CREDENTIALS = {
  webhookUrl: required.url,
  /** HMAC key of X-Novu-Signature. */
  secretKey: required.string,
  from: required.string,
  senderName: required.string,
};

/**
 * `email-webhook`: POSTs the whole email as JSON to the integration's `webhookUrl` — to, cc,
 * bcc, from, senderName, replyTo, subject, html, text, attachments (base64 `file`), headers, id,
 * customData, tags — signed with `X-Novu-Signature` (hex HMAC-SHA256 of the body, keyed by
 * secretKey) and carrying `Idempotency-Key`. As in Novu, the trigger's provider overrides are
 * merged into the body (the email's own fields win). No inline retries: the queue retries.
 * The id is the receiver's `id` when it answers one, else our message id. No check: there is
 * nothing to call without sending.
 */
export class EmailWebhookProvider implements ProviderAdapter<'email'> {
  readonly id = 'email-webhook';
  readonly channel = 'email' as const;
  readonly credentialSchema = EMAIL_WEBHOOK_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: EmailMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, EMAIL_WEBHOOK_CREDENTIALS, credentials);
    const sender = senderOf(message, config, this.id);
    const email = {
      id: message.id,
      to: message.to,
      ...(message.cc?.length ? { cc: message.cc } : {}),
      ...(message.bcc?.length ? { bcc: message.bcc } : {}),
      from: sender.address,
      ...(sender.name ? { senderName: sender.name } : {}),
      ...(message.replyTo ? { replyTo: message.replyTo } : {}),
      subject: message.subject,
      html: message.html,
      ...(message.text ? { text: message.text } : {}),
      ...(message.attachments?.length
        ? {
            attachments: message.attachments.map((attachment) => ({
              name: attachment.name,
              mime: attachment.mime,
              file: attachment.file.toString('base64'),
              ...(attachment.cid ? { cid: attachment.cid } : {}),
              ...(attachment.disposition ? { disposition: attachment.disposition } : {}),
            })),
          }
        : {}),
      ...(message.headers && Object.keys(message.headers).length ? { headers: message.headers } : {}),
      ...(message.customData && Object.keys(message.customData).length ? { customData: message.customData } : {}),
      ...(message.tags && Object.keys(message.tags).length ? { tags: message.tags } : {}),
    };
    const result = await sendSignedWebhook(this.runtime, config.webhookUrl, { ...context.overrides, ...email }, config.secretKey, context);
    return { ...result, id: result.id ?? message.id };
  }
}
