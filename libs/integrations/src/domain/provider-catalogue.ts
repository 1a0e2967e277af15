import { Channel } from '@app/kernel';
import { DeliveryLimits } from './delivery-limits';

/** What the service knows about one provider id: its channel, display name and credential fields. */
export interface ProviderDescription {
  id: string;
  channel: Channel;
  displayName: string;
  /** Credential keys an active integration of this provider must carry. */
  requiredCredentials: readonly string[];
  /** Credential keys the provider uses but can do without. */
  optionalCredentials: readonly string[];
  /** The vendor's published limit for one account or sender, used where an integration sets none. */
  defaultLimits?: DeliveryLimits;
  /** The vendor's limit for each address it delivers to (a Slack webhook URL or channel), on top of the integration's. */
  addressLimits?: DeliveryLimits;
}

const provider = (
  id: string,
  channel: Channel,
  displayName: string,
  requiredCredentials: readonly string[],
  optionalCredentials: readonly string[] = [],
): ProviderDescription => ({ id, channel, displayName, requiredCredentials, optionalCredentials });

// Every email provider also sends `from` and `senderName`, which Novu requires.
const EMAIL_SENDER = ['from', 'senderName'];
const email = (id: string, name: string, required: string[], optional: string[] = []) => provider(id, 'email', name, [...required, ...EMAIL_SENDER], optional);
// Every SMS provider sends from a number or sender id.
const sms = (id: string, name: string, required: string[], optional: string[] = [], needsFrom = true) =>
  provider(id, 'sms', name, needsFrom ? [...required, 'from'] : required, needsFrom ? optional : [...optional, 'from']);

// A bot token (`apiToken`) sends with chat.postMessage to a subscriber's channel; without it, to their webhook.
const SLACK_OPTIONAL = ['apiToken', 'baseUrl'];
// About one message a second per incoming webhook, and per channel through chat.postMessage: each subscriber's own.
const slack = (id: string, name: string) => ({ ...provider(id, 'chat', name, [], SLACK_OPTIONAL), addressLimits: { rateLimit: { perSecond: 1 } } });

/** The providers of reference/providers.md (email, sms, chat, push and in-app tables). */
export const PROVIDERS: readonly ProviderDescription[] = [
  email(
    'nodemailer',
    'Custom SMTP',
    ['host', 'port'],
    ['secure', 'requireTls', 'ignoreTls', 'tlsOptions', 'user', 'password', 'domain', 'accountSid', 'secretKey'],
  ),
  email('sendgrid', 'SendGrid', ['apiKey'], ['ipPoolName', 'baseUrl']),
  email('mailgun', 'Mailgun', ['apiKey', 'domain'], ['user', 'baseUrl']),
  email('ses', 'SES', ['apiKey', 'secretKey', 'region'], ['baseUrl']),
  email('postmark', 'Postmark', ['apiKey'], ['baseUrl']),
  email('resend', 'Resend', ['apiKey'], ['baseUrl']),
  email('sendinblue', 'Brevo', ['apiKey'], ['baseUrl']),
  email('mailjet', 'Mailjet', ['apiKey', 'secretKey'], ['baseUrl']),
  email('email-webhook', 'Email Webhook', ['webhookUrl', 'secretKey']),

  // A long code sends one message per second; a toll-free number, short code or messaging service more (set rateLimit).
  { ...sms('twilio', 'Twilio', ['accountSid', 'token'], ['baseUrl']), defaultLimits: { rateLimit: { perSecond: 1 } } },
  sms('nexmo', 'Nexmo', ['apiKey', 'secretKey'], ['baseUrl']),
  sms('plivo', 'Plivo', ['accountSid', 'token'], ['baseUrl']),
  sms('sns', 'SNS', ['apiKey', 'secretKey', 'region'], ['baseUrl'], false),
  sms('messagebird', 'MessageBird', ['accessKey'], ['baseUrl']),
  sms('telnyx', 'Telnyx', ['apiKey', 'messageProfileId'], ['baseUrl']),
  sms('infobip-sms', 'Infobip', ['baseUrl', 'apiKey']),
  sms('sms77', 'sms77', ['apiKey'], ['baseUrl']),
  sms(
    'generic-sms',
    'Generic SMS',
    ['baseUrl', 'apiKeyRequestHeader', 'apiKey'],
    ['secretKeyRequestHeader', 'secretKey', 'idPath', 'datePath', 'authenticateByToken', 'domain', 'authenticationTokenKey'],
  ),

  slack('slack', 'Slack'),
  provider('discord', 'chat', 'Discord', []),
  provider('msteams', 'chat', 'MSTeams', []),
  provider('mattermost', 'chat', 'Mattermost', []),
  provider('ryver', 'chat', 'Ryver', []),
  provider('zulip', 'chat', 'Zulip', []),
  provider('grafana-on-call', 'chat', 'Grafana On Call Webhook', [], ['alertUid', 'title', 'imageUrl', 'state', 'externalLink']),
  provider('getstream', 'chat', 'GetStream', ['apiKey']),
  provider('rocket-chat', 'chat', 'Rocket.Chat', ['token', 'user']),
  provider('whatsapp-business', 'chat', 'WhatsApp Business', ['apiToken', 'phoneNumberIdentification'], ['apiVersion', 'baseUrl']),
  provider('chat-webhook', 'chat', 'Chat Webhook', [], ['secretKey']),
  // Both names reach the Slack adapter: novu-slack is Novu's, service-slack the interface's.
  slack('novu-slack', 'Novu Slack'),
  slack('service-slack', 'Slack (service)'),

  provider('fcm', 'push', 'Firebase Cloud Messaging', ['serviceAccount'], ['baseUrl']),
  provider('apns', 'push', 'APNs', ['secretKey', 'apiKey', 'projectName', 'applicationId'], ['secure', 'baseUrl']),
  // Expo accepts 600 notifications per second per project.
  { ...provider('expo', 'push', 'Expo Push', ['apiKey'], ['baseUrl']), defaultLimits: { rateLimit: { perSecond: 600 } } },
  provider('one-signal', 'push', 'OneSignal', ['applicationId', 'apiKey'], ['apiVersion', 'baseUrl']),
  provider('pushpad', 'push', 'Pushpad', ['apiKey', 'applicationId'], ['baseUrl']),
  provider('push-webhook', 'push', 'Push Webhook', ['webhookUrl', 'secretKey']),
  provider('pusher-beams', 'push', 'Pusher Beams', ['instanceId', 'secretKey'], ['baseUrl']),

  provider('novu', 'in_app', 'Novu In-App', [], ['hmac']),
];

const BY_ID = new Map(PROVIDERS.map((p) => [p.id, p]));

export function findProvider(providerId: string): ProviderDescription | undefined {
  return BY_ID.get(providerId);
}

/** Where a limit that applies to an integration comes from. */
export type DeliveryLimitSource = 'integration' | 'provider-default' | 'none';

/** The limits that apply to an integration's vendor calls, each with where it comes from. */
export interface EffectiveDeliveryLimits extends DeliveryLimits {
  rateLimitSource: DeliveryLimitSource;
  maxConcurrencySource: DeliveryLimitSource;
}

type LimitedIntegration = { providerId: string; rateLimit?: DeliveryLimits['rateLimit']; maxConcurrency?: number };

/**
 * The limits that apply to an integration's vendor calls: its own, else its provider's default, each
 * field on its own. Slack's one message a second holds per incoming webhook (each subscriber has their
 * own): its provider's addressLimits, not an integration-wide default.
 */
export function effectiveDeliveryLimits(integration: LimitedIntegration): EffectiveDeliveryLimits {
  const defaults = findProvider(integration.providerId)?.defaultLimits ?? {};
  const source = (own: unknown, fallback: unknown): DeliveryLimitSource => (own ? 'integration' : fallback ? 'provider-default' : 'none');
  const rateLimit = integration.rateLimit ?? defaults.rateLimit;
  const maxConcurrency = integration.maxConcurrency ?? defaults.maxConcurrency;
  return {
    ...(rateLimit ? { rateLimit } : {}),
    ...(maxConcurrency ? { maxConcurrency } : {}),
    rateLimitSource: source(integration.rateLimit, defaults.rateLimit),
    maxConcurrencySource: source(integration.maxConcurrency, defaults.maxConcurrency),
  };
}

/** The limits the vendor keeps for each address an integration delivers to (a Slack webhook URL or channel), if any. */
export function addressLimitsOf(providerId: string): DeliveryLimits | undefined {
  return findProvider(providerId)?.addressLimits;
}

/** The limits delivery applies to an integration's vendor calls (effectiveDeliveryLimits, without their sources). */
export function deliveryLimitsOf(integration: LimitedIntegration): DeliveryLimits {
  const { rateLimit, maxConcurrency } = effectiveDeliveryLimits(integration);
  return { ...(rateLimit ? { rateLimit } : {}), ...(maxConcurrency ? { maxConcurrency } : {}) };
}

/** The in-app provider every environment gets, limited to one per environment. */
export const NOVU_IN_APP_PROVIDER_ID = 'novu';

export function isNovuInApp(integration: { providerId: string; channel: Channel }): boolean {
  return integration.providerId === NOVU_IN_APP_PROVIDER_ID && integration.channel === 'in_app';
}
