import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { MailgunFake } from '../fakes/email/mailgun.fake';
import { MailjetFake } from '../fakes/email/mailjet.fake';
import { PostmarkFake } from '../fakes/email/postmark.fake';
import { ResendFake } from '../fakes/email/resend.fake';
import { SendgridFake } from '../fakes/email/sendgrid.fake';
import { SendinblueFake } from '../fakes/email/sendinblue.fake';
import { SesFake } from '../fakes/email/ses.fake';
import { InfobipSmsFake } from '../fakes/sms/infobip-sms.fake';
import { MessagebirdFake } from '../fakes/sms/messagebird.fake';
import { NexmoFake } from '../fakes/sms/nexmo.fake';
import { PlivoFake } from '../fakes/sms/plivo.fake';
import { SnsFake } from '../fakes/sms/sns.fake';
import { Sms77Fake } from '../fakes/sms/sms77.fake';
import { TelnyxFake } from '../fakes/sms/telnyx.fake';
import { TwilioFake } from '../fakes/sms/twilio.fake';
import { VendorFake } from '../fakes/vendor-fake';
import {
  CredentialsSigner,
  MailgunSigner,
  MessageBirdSigner,
  PlivoSigner,
  SendGridSigner,
  SignedRequest,
  SnsSigner,
  SvixSigner,
  TelnyxSigner,
  TwilioSigner,
  VonageSigner,
} from '../fakes/vendor-event-signers';
import { ApiClient, StoreUnderTest, TestApp, startTestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/**
 * Vendor delivery events in, per vendor: a real send through the vendor's loopback fake, then the
 * vendor's event webhook signed its way with keys made here. Accepted events become execution
 * details (source Webhook) and the message's deliveryState; a bad signature is a 401 that records
 * nothing; a replay is recorded once; an unknown message is acknowledged; a hard bounce suppresses
 * the address, the next send to it is skipped with a detail saying why, and lifting it sends again.
 */
jest.setTimeout(120_000);

const PUBLIC_URL = 'https://notify.example.com';
const SETTLED = ['completed', 'failed', 'canceled', 'skipped'];
const fresh = () => randomBytes(8).toString('hex');

type EventKind = 'delivered' | 'bounce';
interface EventContext {
  vendorId: string;
  address: string;
  at: Date;
  url: string;
  key: string;
}
interface Vendor {
  providerId: string;
  channel: 'email' | 'sms';
  fake: VendorFake;
  credentials(): Record<string, unknown>;
  signingKey?: string;
  event(kind: EventKind, c: EventContext): SignedRequest;
  /** The same request with its signature broken (or its credentials wrong). */
  forge(signed: SignedRequest): SignedRequest;
  /** The vendor's failure report says the number or address is gone for good (else it is a failure that suppresses nothing). */
  permanentFailures?: false;
}

const tamper = (signed: SignedRequest): SignedRequest => ({ ...signed, body: signed.body.replace(/"(\w+)"/, '"$1x"') });
const SMS_FROM = '+15550001111';
const SENDER = { from: 'no-reply@example.com', senderName: 'Example' };

function vendors(): Vendor[] {
  const sendgrid = new SendGridSigner();
  const mailgun = new MailgunSigner();
  const svix = new SvixSigner();
  const postmark = new CredentialsSigner();
  const mailjet = new CredentialsSigner();
  const brevo = new CredentialsSigner();
  const brevoToken = randomBytes(24).toString('base64url');
  const sns = new SnsSigner();
  const telnyx = new TelnyxSigner();
  const vonage = new VonageSigner();
  const messagebird = new MessageBirdSigner();
  const plivoFake = new PlivoFake();
  const plivo = new PlivoSigner(plivoFake.authToken);
  const infobip = new CredentialsSigner();
  const seven = new CredentialsSigner();
  const sevenToken = randomBytes(24).toString('base64url');
  const twilioFake = new TwilioFake();
  const twilio = new TwilioSigner(twilioFake.token);
  const seconds = (at: Date) => Math.floor(at.getTime() / 1000);
  return [
    {
      providerId: 'sendgrid',
      channel: 'email',
      fake: new SendgridFake(),
      credentials() {
        return { apiKey: (this.fake as SendgridFake).apiKey, ...SENDER, baseUrl: this.fake.origin };
      },
      signingKey: sendgrid.verificationKey,
      event: (kind, c) =>
        sendgrid.sign([
          {
            email: c.address,
            timestamp: seconds(c.at),
            sg_event_id: c.key,
            sg_message_id: `${c.vendorId}.filterdrecv-1`,
            ...(kind === 'delivered' ? { event: 'delivered' } : { event: 'bounce', type: 'bounce', reason: '550 5.1.1 unknown user' }),
          },
        ]),
      forge: tamper,
    },
    {
      providerId: 'mailgun',
      channel: 'email',
      fake: new MailgunFake(),
      credentials() {
        const f = this.fake as MailgunFake;
        return { apiKey: f.apiKey, domain: f.domain, ...SENDER, baseUrl: f.origin };
      },
      signingKey: mailgun.signingKey,
      event: (kind, c) =>
        mailgun.sign({
          id: c.key,
          recipient: c.address,
          timestamp: c.at.getTime() / 1000,
          message: { headers: { 'message-id': c.vendorId.replace(/^<|>$/g, '') } },
          ...(kind === 'delivered'
            ? { event: 'delivered' }
            : { event: 'failed', severity: 'permanent', 'delivery-status': { description: 'No such mailbox' } }),
        }),
      forge: (signed) => ({ ...signed, body: signed.body.replace(/"signature":"[0-9a-f]{4}/, '"signature":"0000') }),
    },
    {
      providerId: 'resend',
      channel: 'email',
      fake: new ResendFake(),
      credentials() {
        return { apiKey: (this.fake as ResendFake).apiKey, ...SENDER, baseUrl: this.fake.origin };
      },
      signingKey: svix.secret,
      event: (kind, c) =>
        svix.sign(
          kind === 'delivered'
            ? { type: 'email.delivered', created_at: c.at.toISOString(), data: { email_id: c.vendorId, to: [c.address] } }
            : {
                type: 'email.bounced',
                created_at: c.at.toISOString(),
                data: { email_id: c.vendorId, to: [c.address], bounce: { type: 'Permanent', message: 'Mailbox does not exist' } },
              },
          { id: `msg_${c.key}` },
        ),
      forge: tamper,
    },
    {
      providerId: 'postmark',
      channel: 'email',
      fake: new PostmarkFake(),
      credentials() {
        return { apiKey: (this.fake as PostmarkFake).serverToken, ...SENDER, baseUrl: this.fake.origin };
      },
      signingKey: postmark.credentials,
      event: (kind, c) =>
        postmark.sign(
          kind === 'delivered'
            ? { RecordType: 'Delivery', MessageID: c.vendorId, Recipient: c.address, DeliveredAt: c.at.toISOString(), Details: c.key }
            : {
                RecordType: 'Bounce',
                ID: c.key,
                Type: 'HardBounce',
                MessageID: c.vendorId,
                Email: c.address,
                BouncedAt: c.at.toISOString(),
                Description: 'Unknown user',
              },
        ),
      forge: (signed) => ({ ...signed, headers: { ...signed.headers, authorization: `Basic ${Buffer.from('hook:wrong').toString('base64')}` } }),
    },
    {
      providerId: 'mailjet',
      channel: 'email',
      fake: new MailjetFake(),
      credentials() {
        const f = this.fake as MailjetFake;
        return { apiKey: f.apiKey, secretKey: f.secretKey, ...SENDER, baseUrl: f.origin };
      },
      signingKey: mailjet.credentials,
      event: (kind, c) => {
        const event = {
          time: seconds(c.at),
          MessageID: c.vendorId,
          email: c.address,
          ...(kind === 'delivered' ? { event: 'sent' } : { event: 'bounce', hard_bounce: true, error_related_to: 'recipient', error: 'user unknown' }),
        };
        const signed = mailjet.sign([event]);
        return { ...signed, body: signed.body.replace(/"MessageID":"(\d+)"/, '"MessageID":$1') }; // a bare integer, as Mailjet writes it
      },
      forge: (signed) => ({ ...signed, headers: { ...signed.headers, authorization: `Basic ${Buffer.from('hook:wrong').toString('base64')}` } }),
    },
    {
      providerId: 'sendinblue',
      channel: 'email',
      fake: new SendinblueFake(),
      credentials() {
        return { apiKey: (this.fake as SendinblueFake).apiKey, ...SENDER, baseUrl: this.fake.origin };
      },
      signingKey: brevoToken,
      // A bearer token here (Basic credentials work the same way, as for Mailjet).
      event: (kind, c) =>
        brevo.sign(
          {
            email: c.address,
            'message-id': c.vendorId,
            ts_event: seconds(c.at),
            ...(kind === 'delivered' ? { event: 'delivered' } : { event: 'hard_bounce', reason: 'unknown user' }),
          },
          { scheme: 'Bearer', credentials: brevoToken },
        ),
      forge: (signed) => ({ ...signed, headers: { ...signed.headers, authorization: 'Bearer wrong-token' } }),
    },
    {
      providerId: 'ses',
      channel: 'email',
      fake: new SesFake(),
      credentials() {
        const f = this.fake as SesFake;
        return { apiKey: f.accessKeyId, secretKey: f.secretAccessKey, region: f.region, ...SENDER, baseUrl: f.origin };
      },
      signingKey: sns.certificate,
      event: (kind, c) =>
        sns.sign({
          Type: 'Notification',
          MessageId: c.key,
          Message: JSON.stringify(
            kind === 'delivered'
              ? {
                  eventType: 'Delivery',
                  mail: { messageId: c.vendorId, destination: [c.address] },
                  delivery: { timestamp: c.at.toISOString(), recipients: [c.address] },
                }
              : {
                  eventType: 'Bounce',
                  mail: { messageId: c.vendorId, destination: [c.address] },
                  bounce: {
                    bounceType: 'Permanent',
                    timestamp: c.at.toISOString(),
                    bouncedRecipients: [{ emailAddress: c.address, diagnosticCode: 'smtp; 550 5.1.1' }],
                  },
                },
          ),
        }),
      forge: tamper,
    },
    {
      providerId: 'twilio',
      channel: 'sms',
      fake: twilioFake,
      credentials() {
        return { accountSid: twilioFake.accountSid, token: twilioFake.token, from: SMS_FROM, baseUrl: twilioFake.origin };
      },
      event: (kind, c) =>
        twilio.sign(c.url, {
          MessageSid: c.vendorId,
          AccountSid: twilioFake.accountSid,
          To: c.address,
          ...(kind === 'delivered' ? { MessageStatus: 'delivered' } : { MessageStatus: 'undelivered', ErrorCode: '30005' }),
        }),
      forge: (signed) => ({ ...signed, body: signed.body.replace('MessageStatus=', 'MessageStatus=x') }),
    },
    {
      providerId: 'telnyx',
      channel: 'sms',
      fake: new TelnyxFake(),
      credentials() {
        const f = this.fake as TelnyxFake;
        return { apiKey: f.apiKey, messageProfileId: f.messagingProfileId, from: SMS_FROM, baseUrl: f.origin };
      },
      signingKey: telnyx.publicKey,
      event: (kind, c) =>
        telnyx.sign({
          data: {
            id: c.key,
            event_type: 'message.finalized',
            occurred_at: c.at.toISOString(),
            payload: {
              id: c.vendorId,
              completed_at: c.at.toISOString(),
              to: [{ phone_number: c.address, status: kind === 'delivered' ? 'delivered' : 'delivery_failed' }],
              ...(kind === 'bounce' ? { errors: [{ code: '40300', title: 'Blocked as spam' }] } : {}),
            },
          },
        }),
      forge: tamper,
    },
    {
      providerId: 'nexmo',
      channel: 'sms',
      fake: new NexmoFake(),
      credentials() {
        const f = this.fake as NexmoFake;
        return { apiKey: f.apiKey, secretKey: f.apiSecret, from: SMS_FROM, baseUrl: f.origin };
      },
      signingKey: vonage.signatureSecret,
      // Vonage reports the number without the +; the delivered receipt comes as signed JSON, the failure as a signed form.
      event: (kind, c) => {
        const receipt = {
          msisdn: c.address.replace('+', ''),
          to: SMS_FROM.replace('+', ''),
          messageId: c.vendorId,
          'message-timestamp': c.at.toISOString().slice(0, 19).replace('T', ' '),
          ...(kind === 'delivered' ? { status: 'delivered', 'err-code': '0' } : { status: 'failed', 'err-code': '3' }),
        };
        return kind === 'delivered' ? vonage.signJwt(receipt) : vonage.signSig(receipt);
      },
      forge: tamper,
    },
    {
      providerId: 'messagebird',
      channel: 'sms',
      fake: new MessagebirdFake(),
      credentials() {
        return { accessKey: (this.fake as MessagebirdFake).accessKey, from: 'ACME', baseUrl: this.fake.origin };
      },
      signingKey: messagebird.signingKey,
      // A status report is a GET: the report in the query, the JWT over the URL called.
      event: (kind, c) =>
        messagebird.sign(c.url, {
          id: c.vendorId,
          recipient: c.address.replace('+', ''),
          statusDatetime: c.at.toISOString(),
          ...(kind === 'delivered' ? { status: 'delivered' } : { status: 'delivery_failed', statusReason: 'unknown subscriber', statusErrorCode: '1' }),
        }),
      forge: (signed) => ({ ...signed, query: signed.query!.replace('status=', 'status=x') }),
    },
    {
      providerId: 'plivo',
      channel: 'sms',
      fake: plivoFake,
      // No signing key: the auth token credential signs, as for Twilio.
      credentials() {
        return { accountSid: plivoFake.authId, token: plivoFake.authToken, from: SMS_FROM, baseUrl: plivoFake.origin };
      },
      event: (kind, c) =>
        plivo.sign(c.url, {
          MessageUUID: c.vendorId,
          To: c.address.replace('+', ''),
          From: SMS_FROM.replace('+', ''),
          ...(kind === 'delivered' ? { Status: 'delivered', ErrorCode: '000' } : { Status: 'undelivered', ErrorCode: '50' }),
        }),
      forge: (signed) => ({ ...signed, body: signed.body.replace('Status=', 'Status=x') }),
    },
    {
      providerId: 'infobip-sms',
      channel: 'sms',
      fake: new InfobipSmsFake(),
      credentials() {
        return { apiKey: (this.fake as InfobipSmsFake).apiKey, from: 'ACME', baseUrl: this.fake.origin };
      },
      signingKey: infobip.credentials,
      event: (kind, c) =>
        infobip.sign({
          results: [
            {
              messageId: c.vendorId,
              to: c.address.replace('+', ''),
              doneAt: c.at.toISOString().replace('Z', '+0000'),
              ...(kind === 'delivered'
                ? { status: { groupName: 'DELIVERED', name: 'DELIVERED_TO_HANDSET' }, error: { name: 'NO_ERROR', permanent: false } }
                : {
                    status: { groupName: 'UNDELIVERABLE', name: 'UNDELIVERABLE_NOT_DELIVERED' },
                    error: { name: 'EC_UNKNOWN_SUBSCRIBER', description: 'Unknown Subscriber', permanent: true },
                  }),
            },
          ],
        }),
      forge: (signed) => ({ ...signed, headers: { ...signed.headers, authorization: `Basic ${Buffer.from('hook:wrong').toString('base64')}` } }),
    },
    {
      providerId: 'sms77',
      channel: 'sms',
      fake: new Sms77Fake(),
      credentials() {
        return { apiKey: (this.fake as Sms77Fake).apiKey, from: 'ACME', baseUrl: this.fake.origin };
      },
      signingKey: sevenToken,
      event: (kind, c) =>
        seven.sign(
          {
            webhook_event: 'dlr',
            webhook_timestamp: c.at.toISOString(),
            data: { msg_id: c.vendorId, status: kind === 'delivered' ? 'DELIVERED' : 'NOTDELIVERED', timestamp: c.at.toISOString() },
          },
          { scheme: 'Bearer', credentials: sevenToken },
        ),
      forge: (signed) => ({ ...signed, headers: { ...signed.headers, authorization: 'Bearer wrong-token' } }),
      permanentFailures: false,
    },
  ];
}

/** Embedded (PGlite, the store's queue) and the production stores in one process (PostgreSQL, Bull on Redis). */
const SETUPS: { name: string; store: StoreUnderTest; redis: boolean }[] = [
  { name: 'embedded: PGlite', store: 'pglite', redis: false },
  { name: 'PostgreSQL + Redis/Bull', store: 'postgres', redis: true },
];

describe.each(SETUPS)('inbound vendor events ($name)', ({ store, redis }) => {
  let t: TestApp;
  let api: ApiClient;
  const all = vendors();

  beforeAll(async () => {
    await Promise.all(all.map((v) => v.fake.start()));
    t = await startTestApp({ store, redis, env: { API_PUBLIC_URL: PUBLIC_URL } });
    api = t.api();
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all(all.map((v) => v.fake.close()));
  });

  /** The vendor's callback: a POST of the body, or a GET with the query when the vendor reports that way. */
  const post = (path: string, signed: SignedRequest) => {
    const server = request(t.app.getHttpServer());
    const req = signed.query === undefined ? server.post(path) : server.get(`${path}?${signed.query}`);
    for (const [name, value] of Object.entries(signed.headers)) req.set(name, value);
    return req.send(signed.body);
  };

  async function notificationOf(transactionId: string) {
    return waitFor(async () => {
      const res = await api.get('/v1/notifications').query({ transactionId });
      const [n] = res.body.data ?? [];
      return n && n.jobs.length > 0 && n.jobs.every((j: any) => SETTLED.includes(j.status)) && n;
    });
  }
  async function messageOf(transactionId: string) {
    const res = await api.get('/v1/messages').query({ transactionId });
    expect(res.status).toBe(200);
    return res.body.data[0];
  }
  const webhookDetails = (n: any) => n.jobs[0].executionDetails.filter((d: any) => d.source === 'Webhook');

  describe.each(all.map((v) => [v.providerId, v] as const))('%s', (_name, vendor) => {
    let integration: { _id: string; _environmentId: string; identifier: string };
    let workflow: string;
    let subscriberId: string;
    const address =
      vendor.channel === 'email' ? `${vendor.providerId}-${fresh()}@example.com` : `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    let path: string;

    async function send(): Promise<{ transactionId: string; notification: any }> {
      const res = await api
        .post('/v1/events/trigger')
        .send({ name: workflow, to: subscriberId, payload: {}, overrides: { [vendor.channel]: { integrationIdentifier: integration.identifier } } });
      expect(res.status).toBe(201);
      const { transactionId } = res.body.data;
      return { transactionId, notification: await notificationOf(transactionId) };
    }
    const vendorIdOf = (notification: any): string => {
      const sent = notification.jobs[0].executionDetails.find((d: any) => d.detail === 'Message sent');
      expect(sent).toBeDefined();
      return JSON.parse(sent.raw).id;
    };

    beforeAll(async () => {
      const res = await api.post('/v1/integrations').send({
        providerId: vendor.providerId,
        channel: vendor.channel,
        identifier: uniqueName(vendor.providerId),
        credentials: vendor.credentials(),
        active: true,
        configurations: { inboundWebhookEnabled: true, ...(vendor.signingKey ? { inboundWebhookSigningKey: vendor.signingKey } : {}) },
      });
      expect(res.status).toBe(201);
      integration = res.body.data;
      path = `/v2/inbound-webhooks/delivery-providers/${integration._environmentId}/${integration._id}`;
      workflow = uniqueName('wf').toLowerCase();
      const step =
        vendor.channel === 'email'
          ? { template: { type: 'email', subject: 'Hello', content: [{ type: 'text', content: 'Hi there' }] } }
          : { template: { type: 'sms', content: 'Hi there' } };
      expect((await api.post('/v1/workflows').send({ name: workflow, identifier: workflow, active: true, steps: [step] })).status).toBe(201);
      subscriberId = uniqueName('sub');
      expect((await api.post('/v2/subscribers').send({ subscriberId, ...(vendor.channel === 'email' ? { email: address } : { phone: address }) })).status).toBe(
        201,
      );
    });

    it('records a delivered event once, refuses a bad signature, acknowledges an unknown message, and suppresses after a permanent failure where the vendor reports one', async () => {
      const { transactionId, notification } = await send();
      expect(notification.jobs[0].status).toBe('completed');
      const vendorId = vendorIdOf(notification);
      const context = (key = fresh(), at = new Date()): EventContext => ({ vendorId, address, at, url: PUBLIC_URL + path, key });

      // A forged request first: 401, nothing recorded.
      const delivered = vendor.event('delivered', context());
      const forged = await post(path, vendor.forge(delivered));
      expect(forged.status).toBe(401);
      expect(forged.body.message).toBeDefined();
      expect(webhookDetails(await notificationOf(transactionId))).toEqual([]);
      expect((await messageOf(transactionId)).deliveryState).toBeUndefined();

      // The real one, then its replay: one execution detail, the message delivered.
      const first = await post(path, delivered);
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({ recorded: 1, duplicates: 0, unknown: 0 });
      const replay = await post(path, delivered);
      expect(replay.status).toBe(200);
      expect(replay.body.data).toEqual({ recorded: 0, duplicates: 1, unknown: 0 });
      const afterDelivered = webhookDetails(await notificationOf(transactionId));
      expect(afterDelivered).toHaveLength(1);
      expect(afterDelivered[0]).toMatchObject({ status: 'Success', detail: 'Provider reports the message delivered', providerId: vendor.providerId });
      const message = await messageOf(transactionId);
      expect(message).toMatchObject({ status: 'sent', deliveryState: 'delivered' });
      expect(Date.parse(message.deliveryStateChangedAt)).not.toBeNaN();

      // An event about a message nobody sent: acknowledged, nothing recorded.
      const unknown = await post(
        path,
        vendor.event('delivered', { ...context(), vendorId: vendor.providerId === 'mailgun' ? `<${fresh()}@mg.example.com>` : fresh() }),
      );
      expect(unknown.status).toBe(200);
      expect(unknown.body.data).toEqual({ recorded: 0, duplicates: 0, unknown: 1 });

      // A hard bounce a second later: the message bounced, the address suppressed (where the vendor says the failure is permanent).
      const bounce = await post(path, vendor.event('bounce', context(fresh(), new Date(Date.now() + 1000))));
      expect(bounce.status).toBe(200);
      expect(bounce.body.data.recorded).toBe(1);
      const details = webhookDetails(await notificationOf(transactionId));
      expect(details.map((d: any) => d.detail)).toEqual([
        'Provider reports the message delivered',
        vendor.channel === 'sms' ? 'Provider reports the message undelivered' : 'Provider reports the message bounced',
      ]);
      expect(details[1].status).toBe('Failed');
      expect((await messageOf(transactionId)).deliveryState).toBe(vendor.channel === 'sms' ? 'undelivered' : 'bounced');
      const suppressions = await api.get('/v2/suppressions').query({ limit: 100 });
      expect(suppressions.status).toBe(200);
      if (vendor.permanentFailures === false) {
        expect(suppressions.body.data.map((s: any) => s.address)).not.toContain(address.toLowerCase());
        return;
      }
      expect(suppressions.body.data).toContainEqual(
        expect.objectContaining({
          address: address.toLowerCase(),
          channel: vendor.channel,
          reason: 'hard_bounce',
          providerId: vendor.providerId,
          messageId: message._id,
        }),
      );

      // The next send to the address is skipped and says why; lifted, it goes out again.
      const sendsBefore = vendor.fake.accepted.length;
      const skipped = await send();
      expect(skipped.notification.jobs[0].status).toBe('canceled'); // a skipped step ends canceled, as a missing address does
      const why = skipped.notification.jobs[0].executionDetails.find((d: any) => /suppression list/.test(d.detail));
      expect(why).toMatchObject({ status: 'Failed' });
      expect(JSON.parse(why.raw)).toMatchObject({ reason: 'hard_bounce', providerId: vendor.providerId });
      expect(await messageOf(skipped.transactionId)).toMatchObject({ status: 'warning', errorId: 'address_suppressed' });
      expect(vendor.fake.accepted.length).toBe(sendsBefore);

      expect((await api.delete(`/v2/suppressions/${encodeURIComponent(address)}`)).status).toBe(204);
      expect((await api.delete(`/v2/suppressions/${encodeURIComponent(address)}`)).status).toBe(404);
      const again = await send();
      expect(again.notification.jobs[0].status).toBe('completed');
      expect(vendor.fake.accepted.length).toBe(sendsBefore + 1);
      expect(vendor.fake.refusals).toEqual([]);
    });
  });

  describe('Amazon SNS subscription confirmation', () => {
    const snsFake = new SnsFake();
    const signer = new SnsSigner();
    const topicArn = 'arn:aws:sns:us-east-1:123456789012:ses-events';
    let path: string;
    beforeAll(async () => {
      await snsFake.start();
      const ses = all.find((v) => v.providerId === 'ses')!;
      const res = await api.post('/v1/integrations').send({
        providerId: 'ses',
        channel: 'email',
        identifier: uniqueName('ses-sub'),
        credentials: ses.credentials(),
        active: true,
        configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: signer.certificate },
      });
      expect(res.status).toBe(201);
      path = `/v2/inbound-webhooks/delivery-providers/${res.body.data._environmentId}/${res.body.data._id}`;
    });
    afterAll(() => snsFake.close());
    const confirmation = (subscribeUrl: string, token: string) =>
      signer.sign({
        Type: 'SubscriptionConfirmation',
        Message: `You have chosen to subscribe to the topic ${topicArn}.`,
        Token: token,
        SubscribeURL: subscribeUrl,
      });

    it('confirms a signed SubscriptionConfirmation by GETting its SubscribeURL (a loopback SNS, the rules allowing loopback)', async () => {
      const { url, token } = snsFake.subscribeUrl(topicArn);
      const forged = confirmation(url, token);
      const refused = await post(path, { ...forged, body: forged.body.replace('Action=ConfirmSubscription', 'Action=ConfirmSubscription&x=1') });
      expect(refused.status).toBe(401);
      expect(snsFake.requests).toHaveLength(0);

      const res = await post(path, confirmation(url, token));
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ recorded: 0, duplicates: 0, unknown: 0, subscriptionConfirmation: true, subscriptionConfirmed: true });
      expect(snsFake.confirmedSubscriptions).toEqual([{ topicArn, token }]);
    });

    it('answers 200 and says so when SNS refuses the confirmation', async () => {
      const res = await post(
        path,
        confirmation(`${snsFake.origin}/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(topicArn)}&Token=unknown`, 'unknown'),
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ subscriptionConfirmation: true, subscriptionConfirmed: false });
      expect(snsFake.refusals.map((r) => r.reason)).toContain('unknown subscription token');
    });
  });

  describe('refusals', () => {
    let sendgrid: Vendor;
    let enabled: { _id: string; _environmentId: string };
    let disabled: { _id: string; _environmentId: string };
    beforeAll(async () => {
      sendgrid = all[0];
      const create = async (configurations: Record<string, unknown>) => {
        const res = await api
          .post('/v1/integrations')
          .send({ providerId: 'sendgrid', channel: 'email', identifier: uniqueName('sg'), credentials: sendgrid.credentials(), active: true, configurations });
        expect(res.status).toBe(201);
        return res.body.data;
      };
      enabled = await create({ inboundWebhookEnabled: true, inboundWebhookSigningKey: sendgrid.signingKey });
      disabled = await create({ inboundWebhookEnabled: false, inboundWebhookSigningKey: sendgrid.signingKey });
    });
    const event = () => sendgrid.event('delivered', { vendorId: fresh(), address: 'x@example.com', at: new Date(), url: '', key: fresh() });

    it('refuses an integration with inbound webhooks off, an unknown integration and environment, before reading the signature', async () => {
      for (const path of [
        `/v2/inbound-webhooks/delivery-providers/${disabled._environmentId}/${disabled._id}`,
        `/v2/inbound-webhooks/delivery-providers/${enabled._environmentId}/${'0'.repeat(24)}`,
        `/v2/inbound-webhooks/delivery-providers/${'0'.repeat(24)}/${enabled._id}`,
        `/v2/inbound-webhooks/delivery-providers/not-an-id/${enabled._id}`,
      ]) {
        const res = await post(path, event());
        expect(res.status).toBe(404);
        expect(res.body.message).toMatch(/inbound webhooks enabled/);
      }
    });

    it('refuses a stale signature, a missing one, and a body over the limit; needs no API key', async () => {
      const path = `/v2/inbound-webhooks/delivery-providers/${enabled._environmentId}/${enabled._id}`;
      const stale = (sendgrid as any).event('delivered', { vendorId: fresh(), address: 'x@example.com', at: new Date(), url: '', key: fresh() });
      expect((await post(path, stale)).status).toBe(200); // fresh and signed: accepted (unknown message)
      const signer = new SendGridSigner();
      const old = signer.sign([{ event: 'delivered', sg_event_id: fresh() }], new Date(Date.now() - 6 * 60_000));
      const integrationWithOld = await api
        .put(`/v1/integrations/${enabled._id}`)
        .send({ configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: signer.verificationKey } });
      expect(integrationWithOld.status).toBe(200);
      const staleRes = await post(path, old);
      expect(staleRes.status).toBe(401);
      expect(staleRes.body.message).toMatch(/5 minutes/);
      expect((await post(path, { body: '[]', headers: { 'content-type': 'application/json' } })).status).toBe(401);
      const huge = signer.sign([{ event: 'delivered', sg_event_id: fresh(), padding: 'x'.repeat(1024 * 1024 + 10) }]);
      expect((await post(path, huge)).status).toBe(413);
    });
  });
});
