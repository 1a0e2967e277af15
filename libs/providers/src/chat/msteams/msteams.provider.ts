import { ChatMessage, ProviderCredentials, ProviderError, SendContext, SendResult } from '@app/delivery';
import { parseCredentials } from '../../http/credential-schema';
import { VendorResponse } from '../../http/vendor-http';
import { classifyHttpFailure } from '../../network/failure-classification';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { chatFailure, jsonObjectOf, responseDate, subscriberWebhookUrl } from '../chat-http';

export const MSTEAMS_CREDENTIALS = {};

const ADAPTIVE_CARD = 'application/vnd.microsoft.card.adaptive';
/** Statuses a connector relays when the channel or the connector itself is gone or refused. */
const GONE_STATUSES = [401, 403, 404, 410];

/**
 * Microsoft Teams incoming webhook (an Office 365 connector or a Workflows / Power Automate
 * webhook): `POST webhookUrl`. The card is `overrides.card` (an object or JSON text), else the
 * content when it parses as a JSON object: a MessageCard (`@type: MessageCard`) or anything already
 * in the `{type:'message', attachments}` envelope goes as-is; an Adaptive Card (`type:
 * AdaptiveCard`) is wrapped in that envelope (what Workflows expects); plain text goes as `{text}`.
 * The id is the `request-id` header (connectors) or `x-ms-workflow-run-id` (Workflows) when sent. Connectors may answer 200 with an error
 * text ("Webhook message delivery failed with error: … HTTP error 429 …"): that is a failure, of
 * the kind the inner status says. No check: the integration has no credentials.
 */
export class MsTeamsProvider implements ProviderAdapter<'chat'> {
  readonly id = 'msteams';
  readonly channel = 'chat' as const;
  readonly credentialSchema = MSTEAMS_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: ChatMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    parseCredentials(this.id, MSTEAMS_CREDENTIALS, credentials);
    const url = subscriberWebhookUrl(this.id, message);
    const response = await this.runtime.http.request({
      url,
      json: teamsPayload(message.content, context.overrides?.card),
      passthrough: context.passthrough,
      signal: context.signal,
    });
    if (response.status >= 200 && response.status < 300 && !/failed with error|delivery failed/i.test(response.text)) {
      return {
        id: response.header('request-id') ?? response.header('x-ms-workflow-run-id') ?? message.id,
        date: responseDate(response),
        raw: { status: response.status },
      };
    }
    throw failure(response);
  }
}

/** What Teams is sent for a content and an optional card override. */
export function teamsPayload(content: string, cardOverride?: unknown): Record<string, unknown> {
  const card = jsonObjectOf(cardOverride) ?? jsonObjectOf(content);
  if (!card) return { text: content };
  if (card.type === 'AdaptiveCard') return { type: 'message', attachments: [{ contentType: ADAPTIVE_CARD, content: card }] };
  return card;
}

function failure(response: VendorResponse): ProviderError {
  const workflowError = response.json<{ error?: { code?: string; message?: string } }>()?.error;
  // Azure's signature errors may quote the signature (the URL's secret): keep only their code.
  const secretMayShow = response.status === 401 || response.status === 403;
  const text = workflowError ? (secretMayShow ? workflowError.code : `${workflowError.code}: ${workflowError.message}`) : response.text.trim().slice(0, 300);
  if (response.status >= 200 && response.status < 300) {
    // A connector relays the status Teams gave it inside a 200.
    const inner = Number(/HTTP error (\d{3})/i.exec(response.text)?.[1]);
    const kind = !Number.isInteger(inner) ? 'permanent' : GONE_STATUSES.includes(inner) ? 'invalid_recipient' : classifyHttpFailure(inner).kind;
    return chatFailure('Microsoft Teams', response, { message: text, kind });
  }
  return chatFailure('Microsoft Teams', response, { message: text, code: workflowError?.code, subscriberUrl: true, withoutBody: secretMayShow });
}
