import { ProviderCredentials, ProviderError, PushMessage, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { httpFailure, VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { compact, overrideReader, vendorDate } from '../push-fields';

export const PUSHER_BEAMS_CREDENTIALS = { instanceId: required.string, secretKey: required.string, baseUrl: optional.url };

/**
 * Pusher Beams: `POST /publish_api/v1/instances/{instanceId}/publishes/users` on the instance's
 * own host (`{instanceId}.pushnotifications.pusher.com`, or `baseUrl`), Bearer secret key, with the
 * device token as the one Beams user id (as Novu) and one payload per platform. Answers
 * `{publishId}`. No check: Beams has no side-effect-free authenticated read.
 *
 * Overrides read (Novu's): `data` (instead of the trigger payload), `sound`, `badge`, `categoryId`,
 * `channelId`, `clickAction`, `color`, `icon`, `tag`, `ttl`, `deepLink` (web).
 */
export class PusherBeamsProvider implements ProviderAdapter<'push'> {
  readonly id = 'pusher-beams';
  readonly channel = 'push' as const;
  readonly credentialSchema = PUSHER_BEAMS_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: PushMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, PUSHER_BEAMS_CREDENTIALS, credentials);
    // The instance id becomes a host name: nothing but the characters Beams ids are made of.
    if (!/^[A-Za-z0-9-]+$/.test(config.instanceId)) {
      throw new ProviderError('invalid_request', 'The pusher-beams integration credentials.instanceId must be a Beams instance id', {
        raw: { invalid: ['instanceId'] },
      });
    }
    const read = overrideReader(context.overrides);
    const data = read.object('data') ?? message.payload;
    const sound = read.string('sound');
    const icon = read.string('icon');
    const ttl = read.number('ttl');
    const alert = { title: message.title, body: message.content };
    const publish = compact({
      users: [message.target],
      apns: { aps: { alert, badge: read.number('badge'), category: read.string('categoryId'), sound } },
      fcm: {
        notification: {
          ...alert,
          android_channel_id: read.string('channelId'),
          click_action: read.string('clickAction'),
          color: read.string('color'),
          icon,
          sound,
          tag: read.string('tag'),
        },
        data,
        time_to_live: ttl,
      },
      web: { notification: { ...alert, icon, deep_link: read.string('deepLink') }, data, time_to_live: ttl },
    });
    const response = await this.runtime.http.request({
      url: vendorUrl(
        config.baseUrl,
        `https://${config.instanceId}.pushnotifications.pusher.com`,
        `/publish_api/v1/instances/${config.instanceId}/publishes/users`,
      ),
      headers: { authorization: `Bearer ${config.secretKey}` },
      json: publish,
      passthrough: context.passthrough,
      signal: context.signal,
    });
    if (response.status < 200 || response.status >= 300) throw httpFailure(response, errorText(response));
    const publishId = response.json<{ publishId?: unknown }>()?.publishId;
    const id = typeof publishId === 'string' ? publishId : undefined;
    return { ...(id ? { id } : {}), date: vendorDate(response), raw: { status: response.status, publishId: id } };
  }
}

/** Beams errors: `{error, description}`. */
function errorText(response: VendorResponse): string | undefined {
  const answer = response.json<{ error?: unknown; description?: unknown }>();
  return [answer?.error, answer?.description].filter((part) => typeof part === 'string' && part !== '').join(': ') || undefined;
}
