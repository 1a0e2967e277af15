import { PROVIDERS } from '../../libs/integrations/src/domain/provider-catalogue';
import { ChatWebhookFake } from '../fakes/chat/chat-webhook.fake';
import { DiscordFake } from '../fakes/chat/discord.fake';
import { GetstreamFake } from '../fakes/chat/getstream.fake';
import { GrafanaOnCallFake } from '../fakes/chat/grafana-on-call.fake';
import { MattermostFake } from '../fakes/chat/mattermost.fake';
import { MsTeamsFake } from '../fakes/chat/msteams.fake';
import { RocketChatFake } from '../fakes/chat/rocket-chat.fake';
import { RyverFake } from '../fakes/chat/ryver.fake';
import { SlackFake } from '../fakes/chat/slack.fake';
import { WhatsappBusinessFake } from '../fakes/chat/whatsapp-business.fake';
import { ZulipFake } from '../fakes/chat/zulip.fake';
import { parseMultipart } from '../fakes/email/email-test-kit';
import { EmailWebhookFake } from '../fakes/email/email-webhook.fake';
import { MailgunFake } from '../fakes/email/mailgun.fake';
import { MailjetFake } from '../fakes/email/mailjet.fake';
import { PostmarkFake } from '../fakes/email/postmark.fake';
import { ResendFake } from '../fakes/email/resend.fake';
import { SendgridFake } from '../fakes/email/sendgrid.fake';
import { SendinblueFake } from '../fakes/email/sendinblue.fake';
import { SesFake } from '../fakes/email/ses.fake';
import { SmtpFake, SmtpReply } from '../fakes/email/smtp.fake';
import { ApnsFake } from '../fakes/push/apns.fake';
import { ExpoFake } from '../fakes/push/expo.fake';
import { FcmFake } from '../fakes/push/fcm.fake';
import { OneSignalFake } from '../fakes/push/one-signal.fake';
import { PushWebhookFake } from '../fakes/push/push-webhook.fake';
import { PusherBeamsFake } from '../fakes/push/pusher-beams.fake';
import { PushpadFake } from '../fakes/push/pushpad.fake';
import { GenericSmsFake } from '../fakes/sms/generic-sms.fake';
import { InfobipSmsFake } from '../fakes/sms/infobip-sms.fake';
import { MessagebirdFake } from '../fakes/sms/messagebird.fake';
import { NexmoFake } from '../fakes/sms/nexmo.fake';
import { PlivoFake } from '../fakes/sms/plivo.fake';
import { Sms77Fake } from '../fakes/sms/sms77.fake';
import { SnsFake } from '../fakes/sms/sns.fake';
import { TelnyxFake } from '../fakes/sms/telnyx.fake';
import { TwilioFake } from '../fakes/sms/twilio.fake';
import { FakeRequest, VendorFake } from '../fakes/vendor-fake';

/**
 * One loopback fake per provider of the catalogue (every channel but in_app), each behind the
 * same handle, for end-to-end tests that run the service against every vendor at once: the
 * integration credentials that reach the fake, the subscriber credentials it accepts (chat and
 * push), what it accepted and refused, and scripted failures.
 *
 * Every member has its own fake instance, so counts are per provider. All fakes listen on
 * 127.0.0.1 (the service needs `allowPrivateNetworkTargets`); they speak plain HTTP, except
 * APNs (HTTP/2 over TLS with the test certificate: the service must trust TEST_CA_PATH through
 * NODE_EXTRA_CA_CERTS) and the SMTP server (plain SMTP, no STARTTLS, no AUTH).
 */

export type FleetChannel = 'email' | 'sms' | 'chat' | 'push';
export type FleetOutcome = 'permanent' | 'invalid_recipient' | 'unavailable';

export interface FleetMember {
  providerId: string;
  channel: FleetChannel;
  /** Integration credentials that make the service's adapter talk to this fake and be accepted (baseUrl etc., from/senderName for email, from for sms). */
  credentials(): Record<string, unknown>;
  /** chat/push only: the subscriber channel credentials (`webhookUrl`, `channel`, `deviceTokens`) the fake accepts; absent for providers addressed otherwise (email, sms, whatsapp-business: the subscriber's email or phone). */
  subscriberCredentials?(): { webhookUrl?: string; channel?: string; deviceTokens?: string[] };
  /** Sends the fake accepted so far (messages, not checks/token exchanges). */
  accepted(): number;
  /** Why the fake refused requests, if it did (the test expects none on the happy path). Scripted failures are not refusals. */
  refusals(): string[];
  /** Short description of each accepted send, for failure messages (method path + the recipient). */
  describeAccepted(): string[];
  /** Script the next send to fail: 'permanent' | 'invalid_recipient' | 'unavailable'. */
  failNext(outcome: FleetOutcome): void;
  reset(): void;
}

export interface Fleet {
  members: FleetMember[];
  /** The member of a provider id (throws for an id the fleet does not have). */
  member(providerId: string): FleetMember;
  close(): Promise<void>;
}

/** What the test gives the subscriber; the fakes accept these. */
export const FLEET_SUBSCRIBER = { email: 'ada@example.com', phone: '+15551234567' } as const;
const EMAIL_SENDER = { from: 'no-reply@example.com', senderName: 'Example' };
/** An E.164 sender every SMS fake accepts (Vonage gets it as bare digits from the adapter). */
const SMS_FROM = '+15550001111';

/** Device tokens (or the vendor's user ids) each push fake accepts as a live recipient. */
const PUSH_TARGETS = {
  fcm: 'fcm-token:APA91bH-device-0001',
  apns: 'a1'.repeat(32),
  expo: 'ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]',
  'one-signal': '1dd608f2-c6a1-11e3-851d-000c2940e62c',
  pushpad: 'user-1',
  'pusher-beams': 'user-1',
  'push-webhook': 'device-token-1',
} as const;

/** A fleet member plus how to start and stop its fake. */
interface RunningMember {
  member: FleetMember;
  start(): Promise<unknown>;
  close(): Promise<void>;
}

interface VendorMemberSpec<F extends VendorFake> {
  providerId: string;
  channel: FleetChannel;
  fake: F;
  credentials(fake: F): Record<string, unknown>;
  subscriberCredentials?(fake: F): { webhookUrl?: string; channel?: string; deviceTokens?: string[] };
  /** Who an accepted request was for, read from the request. */
  recipient(request: FakeRequest): unknown;
}

function vendorMember<F extends VendorFake>(spec: VendorMemberSpec<F>): RunningMember {
  const { fake } = spec;
  const recipientOf = (request: FakeRequest): string => {
    try {
      const recipient = spec.recipient(request);
      return Array.isArray(recipient) ? recipient.join(', ') : String(recipient);
    } catch {
      return '?';
    }
  };
  const member: FleetMember = {
    providerId: spec.providerId,
    channel: spec.channel,
    credentials: () => spec.credentials(fake),
    ...(spec.subscriberCredentials ? { subscriberCredentials: () => spec.subscriberCredentials!(fake) } : {}),
    accepted: () => fake.accepted.length,
    refusals: () => fake.refusals.map((refusal) => `${refusal.status} ${refusal.reason} (${refusal.request.method} ${refusal.request.path})`),
    describeAccepted: () => fake.accepted.map((request) => `${request.method} ${request.path} → ${recipientOf(request)}`),
    failNext: (outcome) => void fake.failNext(outcome),
    reset: () => fake.reset(),
  };
  return { member, start: () => fake.start(), close: () => fake.close() };
}

/**
 * The SMTP server's answers to scripted outcomes (the same replies SmtpFake gives for the named
 * outcomes), passed explicitly so that refusals() can tell them from real refusals: SmtpFake
 * records every error reply it gives, scripted or not.
 */
const SMTP_SCRIPTED: Record<FleetOutcome, SmtpReply> = {
  unavailable: { at: 'rcpt', code: 451, message: '4.3.0 Temporary local problem, try again later' },
  invalid_recipient: { at: 'rcpt', code: 550, message: '5.1.1 Mailbox does not exist' },
  permanent: { at: 'data', code: 554, message: '5.7.1 Message rejected as spam' },
};
const isScriptedSmtpReply = (reply: { at: string; code: number; message: string }) =>
  Object.values(SMTP_SCRIPTED).some((scripted) => scripted.at === reply.at && scripted.code === reply.code && scripted.message === reply.message);

function smtpMember(): RunningMember {
  // Plain SMTP: no STARTTLS offered, no AUTH (the service needs no certificate or login for it).
  const smtp = new SmtpFake({ tls: 'none' });
  const member: FleetMember = {
    providerId: 'nodemailer',
    channel: 'email',
    credentials: () => smtp.credentials(),
    accepted: () => smtp.received.length,
    refusals: () =>
      smtp.refusals.filter((reply) => !isScriptedSmtpReply(reply)).map((reply) => `${reply.code} ${reply.message} (at ${reply.at.toUpperCase()})`),
    describeAccepted: () => smtp.received.map((mail) => `SMTP MAIL FROM:<${mail.envelope.from}> → ${mail.envelope.to.join(', ')}`),
    failNext: (outcome) => void smtp.failNext(SMTP_SCRIPTED[outcome]),
    reset: () => smtp.reset(),
  };
  return { member, start: () => smtp.start(), close: () => smtp.stop() };
}

const json = (request: FakeRequest) => request.json();
const form = (request: FakeRequest, name: string) => request.form().get(name);

function slackMember(providerId: 'slack' | 'service-slack' | 'novu-slack'): RunningMember {
  // Incoming-webhook mode: no apiToken, so the adapter posts to the subscriber's webhookUrl.
  return vendorMember({
    providerId,
    channel: 'chat',
    fake: new SlackFake(),
    credentials: () => ({}),
    subscriberCredentials: (fake) => ({ webhookUrl: fake.webhookUrl }),
    recipient: () => 'incoming webhook',
  });
}

function pushMember<F extends VendorFake>(
  providerId: keyof typeof PUSH_TARGETS,
  fake: F,
  credentials: (fake: F) => Record<string, unknown>,
  recipient: (request: FakeRequest) => unknown,
): RunningMember {
  return vendorMember({
    providerId,
    channel: 'push',
    fake,
    credentials,
    subscriberCredentials: () => ({ deviceTokens: [PUSH_TARGETS[providerId]] }),
    recipient,
  });
}

/** Builds (does not start) a member for every provider id, in the catalogue's order. */
function buildMembers(): RunningMember[] {
  const byId = new Map<string, () => RunningMember>([
    // email
    ['nodemailer', smtpMember],
    [
      'sendgrid',
      () =>
        vendorMember({
          providerId: 'sendgrid',
          channel: 'email',
          fake: new SendgridFake(),
          credentials: (fake) => ({ apiKey: fake.apiKey, ...EMAIL_SENDER, baseUrl: fake.origin }),
          recipient: (request) => json(request).personalizations.flatMap((p: any) => p.to.map((r: any) => r.email)),
        }),
    ],
    [
      'mailgun',
      () =>
        vendorMember({
          providerId: 'mailgun',
          channel: 'email',
          fake: new MailgunFake(),
          credentials: (fake) => ({ apiKey: fake.apiKey, domain: fake.domain, ...EMAIL_SENDER, baseUrl: fake.origin }),
          recipient: (request) => (parseMultipart(request) ?? []).filter((part) => part.name === 'to' && part.filename === undefined).map((part) => part.value),
        }),
    ],
    [
      'ses',
      () =>
        vendorMember({
          providerId: 'ses',
          channel: 'email',
          fake: new SesFake(),
          credentials: (fake) => ({ apiKey: fake.accessKeyId, secretKey: fake.secretAccessKey, region: fake.region, ...EMAIL_SENDER, baseUrl: fake.origin }),
          recipient: (request) => json(request).Destination.ToAddresses,
        }),
    ],
    [
      'postmark',
      () =>
        vendorMember({
          providerId: 'postmark',
          channel: 'email',
          fake: new PostmarkFake(),
          credentials: (fake) => ({ apiKey: fake.serverToken, ...EMAIL_SENDER, baseUrl: fake.origin }),
          recipient: (request) => json(request).To,
        }),
    ],
    [
      'resend',
      () =>
        vendorMember({
          providerId: 'resend',
          channel: 'email',
          fake: new ResendFake(),
          credentials: (fake) => ({ apiKey: fake.apiKey, ...EMAIL_SENDER, baseUrl: fake.origin }),
          recipient: (request) => json(request).to,
        }),
    ],
    [
      'sendinblue',
      () =>
        vendorMember({
          providerId: 'sendinblue',
          channel: 'email',
          fake: new SendinblueFake(),
          credentials: (fake) => ({ apiKey: fake.apiKey, ...EMAIL_SENDER, baseUrl: fake.origin }),
          recipient: (request) => json(request).to.map((r: any) => r.email),
        }),
    ],
    [
      'mailjet',
      () =>
        vendorMember({
          providerId: 'mailjet',
          channel: 'email',
          fake: new MailjetFake(),
          credentials: (fake) => ({ apiKey: fake.apiKey, secretKey: fake.secretKey, ...EMAIL_SENDER, baseUrl: fake.origin }),
          recipient: (request) => json(request).Messages.flatMap((m: any) => m.To.map((r: any) => r.Email)),
        }),
    ],
    [
      'email-webhook',
      () =>
        vendorMember({
          providerId: 'email-webhook',
          channel: 'email',
          fake: new EmailWebhookFake(),
          credentials: (fake) => ({ webhookUrl: fake.url, secretKey: fake.secretKey, ...EMAIL_SENDER }),
          recipient: (request) => json(request).to,
        }),
    ],

    // sms
    [
      'twilio',
      () =>
        vendorMember({
          providerId: 'twilio',
          channel: 'sms',
          fake: new TwilioFake(),
          credentials: (fake) => ({ accountSid: fake.accountSid, token: fake.token, from: SMS_FROM, baseUrl: fake.origin }),
          recipient: (request) => form(request, 'To'),
        }),
    ],
    [
      'nexmo',
      () =>
        vendorMember({
          providerId: 'nexmo',
          channel: 'sms',
          fake: new NexmoFake(),
          credentials: (fake) => ({ apiKey: fake.apiKey, secretKey: fake.apiSecret, from: SMS_FROM, baseUrl: fake.origin }),
          recipient: (request) => json(request).to,
        }),
    ],
    [
      'plivo',
      () =>
        vendorMember({
          providerId: 'plivo',
          channel: 'sms',
          fake: new PlivoFake(),
          credentials: (fake) => ({ accountSid: fake.authId, token: fake.authToken, from: SMS_FROM, baseUrl: fake.origin }),
          recipient: (request) => json(request).dst,
        }),
    ],
    [
      'sns',
      () =>
        vendorMember({
          providerId: 'sns',
          channel: 'sms',
          fake: new SnsFake(),
          credentials: (fake) => ({ apiKey: fake.accessKeyId, secretKey: fake.secretAccessKey, region: fake.region, from: SMS_FROM, baseUrl: fake.origin }),
          recipient: (request) => form(request, 'PhoneNumber'),
        }),
    ],
    [
      'messagebird',
      () =>
        vendorMember({
          providerId: 'messagebird',
          channel: 'sms',
          fake: new MessagebirdFake(),
          credentials: (fake) => ({ accessKey: fake.accessKey, from: SMS_FROM, baseUrl: fake.origin }),
          recipient: (request) => json(request).recipients,
        }),
    ],
    [
      'telnyx',
      () =>
        vendorMember({
          providerId: 'telnyx',
          channel: 'sms',
          fake: new TelnyxFake(),
          credentials: (fake) => ({ apiKey: fake.apiKey, messageProfileId: fake.messagingProfileId, from: SMS_FROM, baseUrl: fake.origin }),
          recipient: (request) => json(request).to,
        }),
    ],
    [
      'infobip-sms',
      () =>
        vendorMember({
          providerId: 'infobip-sms',
          channel: 'sms',
          fake: new InfobipSmsFake(),
          credentials: (fake) => ({ baseUrl: fake.origin, apiKey: fake.apiKey, from: SMS_FROM }),
          recipient: (request) => json(request).messages.flatMap((m: any) => m.destinations.map((d: any) => d.to)),
        }),
    ],
    [
      'sms77',
      () =>
        vendorMember({
          providerId: 'sms77',
          channel: 'sms',
          fake: new Sms77Fake(),
          credentials: (fake) => ({ apiKey: fake.apiKey, from: SMS_FROM, baseUrl: fake.origin }),
          recipient: (request) => form(request, 'to'),
        }),
    ],
    [
      'generic-sms',
      () =>
        vendorMember({
          providerId: 'generic-sms',
          channel: 'sms',
          fake: new GenericSmsFake(),
          credentials: (fake) => ({
            baseUrl: `${fake.origin}/sms`,
            apiKeyRequestHeader: fake.gateway.apiKeyHeader,
            apiKey: fake.gateway.apiKey,
            from: SMS_FROM,
          }),
          recipient: (request) => json(request).to,
        }),
    ],

    // chat
    ['slack', () => slackMember('slack')],
    [
      'discord',
      () =>
        vendorMember({
          providerId: 'discord',
          channel: 'chat',
          fake: new DiscordFake(),
          credentials: () => ({}),
          subscriberCredentials: (fake) => ({ webhookUrl: fake.webhookUrl }),
          recipient: () => 'webhook',
        }),
    ],
    [
      'msteams',
      () =>
        vendorMember({
          // The Office 365 connector kind of hook: it takes plain `{text}` (a Workflows hook needs an Adaptive Card).
          providerId: 'msteams',
          channel: 'chat',
          fake: new MsTeamsFake(),
          credentials: () => ({}),
          subscriberCredentials: (fake) => ({ webhookUrl: fake.connectorUrl }),
          recipient: () => 'connector',
        }),
    ],
    [
      'mattermost',
      () =>
        vendorMember({
          providerId: 'mattermost',
          channel: 'chat',
          fake: new MattermostFake(),
          credentials: () => ({}),
          subscriberCredentials: (fake) => ({ webhookUrl: fake.webhookUrl }),
          recipient: (request) => json(request).channel ?? 'hook channel',
        }),
    ],
    [
      'ryver',
      () =>
        vendorMember({
          providerId: 'ryver',
          channel: 'chat',
          fake: new RyverFake(),
          credentials: () => ({}),
          subscriberCredentials: (fake) => ({ webhookUrl: fake.webhookUrl }),
          recipient: () => 'webhook',
        }),
    ],
    [
      'zulip',
      () =>
        vendorMember({
          providerId: 'zulip',
          channel: 'chat',
          fake: new ZulipFake(),
          credentials: () => ({}),
          subscriberCredentials: (fake) => ({ webhookUrl: fake.webhookUrl() }),
          recipient: (request) => `stream ${request.query.get('stream')}`,
        }),
    ],
    [
      'grafana-on-call',
      () =>
        vendorMember({
          providerId: 'grafana-on-call',
          channel: 'chat',
          fake: new GrafanaOnCallFake(),
          credentials: () => ({}),
          subscriberCredentials: (fake) => ({ webhookUrl: fake.webhookUrl }),
          recipient: () => 'formatted webhook',
        }),
    ],
    [
      'getstream',
      () =>
        vendorMember({
          providerId: 'getstream',
          channel: 'chat',
          fake: new GetstreamFake(),
          credentials: (fake) => ({ apiKey: fake.apiKey }),
          subscriberCredentials: (fake) => ({ webhookUrl: fake.webhookUrl }),
          recipient: () => 'webhook',
        }),
    ],
    [
      'rocket-chat',
      () =>
        vendorMember({
          // The subscriber's webhookUrl is the server, channel the room id.
          providerId: 'rocket-chat',
          channel: 'chat',
          fake: new RocketChatFake(),
          credentials: (fake) => ({ token: fake.authToken, user: fake.userId }),
          subscriberCredentials: (fake) => ({ webhookUrl: fake.origin, channel: fake.rooms[0] }),
          recipient: (request) => `room ${json(request).message.rid}`,
        }),
    ],
    [
      'whatsapp-business',
      () =>
        vendorMember({
          // Addressed to the subscriber's phone: no subscriber credentials.
          providerId: 'whatsapp-business',
          channel: 'chat',
          fake: new WhatsappBusinessFake(),
          credentials: (fake) => ({ apiToken: fake.accessToken, phoneNumberIdentification: fake.phoneNumberId, baseUrl: fake.origin }),
          recipient: (request) => json(request).to,
        }),
    ],
    [
      'chat-webhook',
      () =>
        vendorMember({
          // Built with a secret, so the fake also checks the X-Novu-Signature the adapter adds.
          providerId: 'chat-webhook',
          channel: 'chat',
          fake: new ChatWebhookFake('chat-webhook-secret'),
          credentials: (fake) => ({ secretKey: fake.secretKey }),
          subscriberCredentials: (fake) => ({ webhookUrl: fake.webhookUrl }),
          recipient: (request) => json(request).channel ?? 'webhook',
        }),
    ],
    ['novu-slack', () => slackMember('novu-slack')],
    ['service-slack', () => slackMember('service-slack')],

    // push
    [
      'fcm',
      () =>
        pushMember(
          'fcm',
          new FcmFake(),
          (fake) => ({ serviceAccount: fake.serviceAccount(), baseUrl: fake.origin }),
          (request) => json(request).message.token,
        ),
    ],
    [
      'apns',
      () =>
        // HTTP/2 over TLS with the test certificate (the service trusts it through NODE_EXTRA_CA_CERTS).
        pushMember(
          'apns',
          new ApnsFake(),
          (fake) => fake.credentials(),
          (request) => request.path.slice('/3/device/'.length),
        ),
    ],
    [
      'expo',
      () =>
        pushMember(
          'expo',
          new ExpoFake(),
          (fake) => ({ apiKey: fake.accessToken, baseUrl: fake.origin }),
          (request) => [json(request)].flat().map((m: any) => m.to),
        ),
    ],
    [
      'one-signal',
      () =>
        pushMember(
          // The legacy player-id API (Novu's default apiVersion).
          'one-signal',
          new OneSignalFake(),
          (fake) => ({ applicationId: fake.appId, apiKey: fake.restKey, baseUrl: fake.origin }),
          (request) => json(request).include_player_ids ?? json(request).include_aliases?.external_id,
        ),
    ],
    [
      'pushpad',
      () =>
        pushMember(
          'pushpad',
          new PushpadFake(),
          (fake) => ({ apiKey: fake.token, applicationId: fake.projectId, baseUrl: fake.origin }),
          (request) => json(request).uids,
        ),
    ],
    [
      'pusher-beams',
      () =>
        pushMember(
          'pusher-beams',
          new PusherBeamsFake(),
          (fake) => ({ instanceId: fake.instanceId, secretKey: fake.secretKey, baseUrl: fake.origin }),
          (request) => json(request).users,
        ),
    ],
    [
      'push-webhook',
      () =>
        pushMember(
          'push-webhook',
          new PushWebhookFake(),
          (fake) => ({ webhookUrl: fake.webhookUrl, secretKey: fake.secretKey }),
          (request) => json(request).target,
        ),
    ],
  ]);

  const wanted = PROVIDERS.filter((provider) => provider.channel !== 'in_app');
  const missing = wanted.filter((provider) => !byId.has(provider.id)).map((provider) => provider.id);
  if (missing.length) throw new Error(`provider-fleet: no fake for ${missing.join(', ')}`);
  return wanted.map((provider) => {
    const running = byId.get(provider.id)!();
    if (running.member.channel !== provider.channel)
      throw new Error(`provider-fleet: ${provider.id} is ${provider.channel} in the catalogue, ${running.member.channel} in the fleet`);
    return running;
  });
}

/**
 * Starts a fake for every provider the catalogue has (PROVIDERS, except channel in_app), in the
 * catalogue's order; slack, service-slack and novu-slack each get a SlackFake of their own.
 */
export async function startFleet(): Promise<Fleet> {
  const running = buildMembers();
  const started = await Promise.allSettled(running.map((entry) => entry.start()));
  const closeAll = async () => {
    await Promise.allSettled(running.map((entry, i) => (started[i].status === 'fulfilled' ? entry.close() : Promise.resolve())));
  };
  const failed = started.findIndex((result) => result.status === 'rejected');
  if (failed >= 0) {
    await closeAll();
    const reason = (started[failed] as PromiseRejectedResult).reason;
    throw new Error(
      `provider-fleet: the ${running[failed].member.providerId} fake did not start: ${reason instanceof Error ? reason.message : String(reason)}`,
    );
  }
  const members = running.map((entry) => entry.member);
  const byId = new Map(members.map((member) => [member.providerId, member]));
  let closed = false;
  return {
    members,
    member(providerId: string): FleetMember {
      const member = byId.get(providerId);
      if (!member) throw new Error(`provider-fleet: no member ${providerId} (have ${[...byId.keys()].join(', ')})`);
      return member;
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await closeAll();
    },
  };
}
