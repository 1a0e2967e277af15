import { ChatMessage, ProviderCredentials, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials } from '../../http/credential-schema';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { chatFailure, responseDate, subscriberWebhookUrl } from '../chat-http';

export const GRAFANA_ON_CALL_CREDENTIALS = {
  alertUid: optional.string,
  title: optional.string,
  imageUrl: optional.string,
  state: optional.string,
  externalLink: optional.string,
};

/**
 * Grafana OnCall formatted webhook: `POST webhookUrl` with `{alert_uid, title, image_url, state,
 * link_to_upstream_details, message}`. Each field comes from the subscriber entry (`alertUid`,
 * `title`, `imageUrl`, `state`, `externalUrl`) first, then the integration's credentials
 * (`alertUid`, `title`, `imageUrl`, `state`, `externalLink`); `message` is the content. Grafana
 * answers `Ok.` and no id, so the id is ours. No overrides read. No check: the integration's
 * fields are defaults, not credentials.
 */
export class GrafanaOnCallProvider implements ProviderAdapter<'chat'> {
  readonly id = 'grafana-on-call';
  readonly channel = 'chat' as const;
  readonly credentialSchema = GRAFANA_ON_CALL_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: ChatMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, GRAFANA_ON_CALL_CREDENTIALS, credentials);
    const url = subscriberWebhookUrl(this.id, message);
    const subscriber = message.recipient ?? {};
    const field = (key: string, fallback: string | undefined) => {
      const value = subscriber[key];
      return typeof value === 'string' && value.trim() !== '' ? value : fallback;
    };
    const body = {
      alert_uid: field('alertUid', config.alertUid),
      title: field('title', config.title),
      image_url: field('imageUrl', config.imageUrl),
      state: field('state', config.state),
      link_to_upstream_details: field('externalUrl', config.externalLink),
      message: message.content,
    };
    const response = await this.runtime.http.request({ url, json: body, passthrough: context.passthrough, signal: context.signal });
    if (response.status >= 200 && response.status < 300) return { id: message.id, date: responseDate(response), raw: { status: response.status } };
    const answer = response.json<{ detail?: string }>();
    throw chatFailure('Grafana OnCall', response, { message: answer?.detail ?? (response.text.trim().slice(0, 300) || undefined), subscriberUrl: true });
  }
}
