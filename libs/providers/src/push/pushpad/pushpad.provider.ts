import { ProviderCheckResult, ProviderCredentials, ProviderError, PushMessage, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { httpFailure, VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { compact, overrideReader, vendorDate } from '../push-fields';

export const PUSHPAD_CREDENTIALS = {
  /** The account's API access token. */
  apiKey: required.string,
  /** The project id. */
  applicationId: required.string,
  baseUrl: optional.url,
};

const PUSHPAD_ORIGIN = 'https://pushpad.xyz';

/**
 * Pushpad web push: `POST /api/v1/projects/{applicationId}/notifications` with the device token as
 * the one `uids` entry (as Novu), authenticated `Token token="…"` as Pushpad's REST docs show.
 * Answers 201 `{id, scheduled}`. A uid is a user id, not a subscription: when Pushpad schedules
 * nothing for it (no subscription now) the send fails without naming the token dead, since the user
 * may subscribe again under the same uid.
 *
 * Overrides read (Pushpad's notification fields, camelCase as Novu's): `targetUrl`, `iconUrl`,
 * `badgeUrl`, `imageUrl`, `ttl`, `requireInteraction`, `silent`, `urgent`, `customData`,
 * `actions`, `starred`, `sendAt`, `customMetrics`.
 */
export class PushpadProvider implements ProviderAdapter<'push'> {
  readonly id = 'pushpad';
  readonly channel = 'push' as const;
  readonly credentialSchema = PUSHPAD_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: PushMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, PUSHPAD_CREDENTIALS, credentials);
    const read = overrideReader(context.overrides);
    const notification = compact({
      body: message.content,
      title: message.title || undefined,
      target_url: read.string('targetUrl'),
      icon_url: read.string('iconUrl'),
      badge_url: read.string('badgeUrl'),
      image_url: read.string('imageUrl'),
      ttl: read.number('ttl'),
      require_interaction: read.boolean('requireInteraction'),
      silent: read.boolean('silent'),
      urgent: read.boolean('urgent'),
      custom_data: read.string('customData'),
      actions: read.raw('actions'),
      starred: read.boolean('starred'),
      send_at: read.string('sendAt'),
      custom_metrics: read.raw('customMetrics'),
    });
    const response = await this.runtime.http.request({
      url: vendorUrl(config.baseUrl, PUSHPAD_ORIGIN, `/api/v1/projects/${encodeURIComponent(config.applicationId)}/notifications`),
      headers: { authorization: tokenAuthorization(config.apiKey) },
      json: { notification, uids: [message.target] },
      passthrough: context.passthrough,
      signal: context.signal,
    });
    if (response.status < 200 || response.status >= 300) throw httpFailure(response, errorText(response));
    const answer = response.json<{ id?: unknown; scheduled?: unknown }>();
    const id = typeof answer?.id === 'number' || typeof answer?.id === 'string' ? String(answer.id) : undefined;
    if (answer?.scheduled === 0) {
      throw new ProviderError('permanent', `Pushpad has no subscription for uid ${message.target} (nothing scheduled)`, {
        status: response.status,
        raw: { status: response.status, id, scheduled: 0 },
      });
    }
    return { ...(id ? { id } : {}), date: vendorDate(response), raw: { status: response.status, id, scheduled: answer?.scheduled } };
  }

  /** `GET /api/v1/projects/{applicationId}`: the token is valid and reaches the project. */
  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, PUSHPAD_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      method: 'GET',
      url: vendorUrl(config.baseUrl, PUSHPAD_ORIGIN, `/api/v1/projects/${encodeURIComponent(config.applicationId)}`),
      headers: { authorization: tokenAuthorization(config.apiKey) },
      signal,
    });
    if (response.status === 200) return { ok: true };
    return { ok: false, message: errorText(response) ?? `Pushpad answered HTTP ${response.status}` };
  }
}

function tokenAuthorization(apiKey: string): string {
  return `Token token="${apiKey}"`;
}

/** Pushpad errors come as `{error}` or as `{errors}` (a list or a field map). */
function errorText(response: VendorResponse): string | undefined {
  const answer = response.json<{ error?: unknown; errors?: unknown }>();
  if (typeof answer?.error === 'string') return answer.error;
  if (Array.isArray(answer?.errors)) return answer.errors.map(String).join('; ');
  if (answer?.errors && typeof answer.errors === 'object') {
    return Object.entries(answer.errors as Record<string, unknown>)
      .map(([field, problems]) => `${field} ${[problems].flat().join(', ')}`)
      .join('; ');
  }
  return undefined;
}
