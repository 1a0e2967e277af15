import request from 'supertest';
import { SendgridFake } from '../fakes/email/sendgrid.fake';
import { MessagebirdFake } from '../fakes/sms/messagebird.fake';
import { TwilioFake } from '../fakes/sms/twilio.fake';
import { MessageBirdSigner, SendGridSigner, SignedRequest, TwilioSigner } from '../fakes/vendor-event-signers';
import { ServiceHarness, buildService } from '../support/service-processes';
import { uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

/**
 * The built service in production mode (api and worker apart, PostgreSQL, Bull on Redis): an email
 * sent by the worker through the SendGrid fake and an SMS through the Twilio fake, then each vendor's
 * signed event posted to the api process — the raw body reaches the signature check there as in the
 * embedded mode, the message shows the state, and a bad signature is refused; and a MessageBird status
 * report, a GET whose query its JWT covers.
 */
jest.setTimeout(240_000);

const PUBLIC_URL = 'https://notify.example.com';
let buildDir: string;
let h: ServiceHarness;
const sendgridFake = new SendgridFake();
const twilioFake = new TwilioFake();
const messagebirdFake = new MessagebirdFake();

beforeAll(async () => {
  buildDir = await buildService();
  await Promise.all([sendgridFake.start(), twilioFake.start(), messagebirdFake.start()]);
  h = await ServiceHarness.create(buildDir, { env: { API_PUBLIC_URL: PUBLIC_URL } });
  await h.startApi();
  await h.startWorker();
}, 240_000);
afterAll(async () => {
  await h?.close();
  await Promise.all([sendgridFake.close(), twilioFake.close(), messagebirdFake.close()]);
}, 60_000);

const post = (path: string, signed: SignedRequest) => {
  const req = request(h.baseUrl).post(path);
  for (const [name, value] of Object.entries(signed.headers)) req.set(name, value);
  return req.send(signed.body);
};

async function sendThrough(
  channel: 'email' | 'sms',
  providerId: string,
  credentials: Record<string, unknown>,
  signingKey: string | undefined,
  to: Record<string, string>,
) {
  const { data: integration } = await h.expect(201, 'POST', '/v1/integrations', {
    providerId,
    channel,
    identifier: uniqueName(providerId),
    credentials,
    active: true,
    configurations: { inboundWebhookEnabled: true, ...(signingKey ? { inboundWebhookSigningKey: signingKey } : {}) },
  });
  const workflow = uniqueName('wf').toLowerCase();
  const step =
    channel === 'email'
      ? { template: { type: 'email', subject: 'Hi', content: [{ type: 'text', content: 'Hello' }] } }
      : { template: { type: 'sms', content: 'Hello' } };
  await h.expect(201, 'POST', '/v1/workflows', { name: workflow, identifier: workflow, active: true, steps: [step] });
  const subscriberId = uniqueName('sub');
  await h.expect(201, 'POST', '/v2/subscribers', { subscriberId, ...to });
  const { data: trigger } = await h.expect(201, 'POST', '/v1/events/trigger', {
    name: workflow,
    to: subscriberId,
    overrides: { [channel]: { integrationIdentifier: integration.identifier } },
  });
  const notification = await waitFor(async () => {
    const { data } = await h.expect(200, 'GET', `/v1/notifications?transactionId=${trigger.transactionId}`);
    return data[0]?.jobs[0]?.status === 'completed' && data[0];
  }, 60_000);
  const sent = notification.jobs[0].executionDetails.find((d: any) => d.detail === 'Message sent');
  return {
    path: `/v2/inbound-webhooks/delivery-providers/${integration._environmentId}/${integration._id}`,
    vendorId: JSON.parse(sent.raw).id as string,
    transactionId: trigger.transactionId as string,
  };
}

async function messageState(transactionId: string) {
  const { data } = await h.expect(200, 'GET', `/v1/messages?transactionId=${transactionId}`);
  return data[0].deliveryState;
}

it('SendGrid: a signed event reaches the api raw and marks the message; a forged one is a 401', async () => {
  const signer = new SendGridSigner();
  const { path, vendorId, transactionId } = await sendThrough(
    'email',
    'sendgrid',
    { apiKey: sendgridFake.apiKey, from: 'no-reply@example.com', senderName: 'Example', baseUrl: sendgridFake.origin },
    signer.verificationKey,
    { email: 'prod@example.com' },
  );
  const opened = signer.sign([
    { event: 'open', email: 'prod@example.com', timestamp: Math.floor(Date.now() / 1000), sg_event_id: uniqueName('ev'), sg_message_id: `${vendorId}.filter1` },
  ]);
  expect((await post(path, { ...opened, body: opened.body.replace('open', 'click') })).status).toBe(401);
  const res = await post(path, opened);
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual({ recorded: 1, duplicates: 0, unknown: 0 });
  expect(await messageState(transactionId)).toBe('opened');
});

it('Twilio: a status callback signed over API_PUBLIC_URL + path with the auth token marks the SMS delivered', async () => {
  const signer = new TwilioSigner(twilioFake.token);
  const { path, vendorId, transactionId } = await sendThrough(
    'sms',
    'twilio',
    { accountSid: twilioFake.accountSid, token: twilioFake.token, from: '+15550001111', baseUrl: twilioFake.origin },
    undefined,
    { phone: '+15555550123' },
  );
  const callback = signer.sign(PUBLIC_URL + path, { MessageSid: vendorId, MessageStatus: 'delivered', To: '+15555550123' });
  expect((await post(path, signer.sign(`http://elsewhere${path}`, { MessageSid: vendorId, MessageStatus: 'delivered', To: '+15555550123' }))).status).toBe(401);
  const res = await post(path, callback);
  expect(res.status).toBe(200);
  expect(res.body.data.recorded).toBe(1);
  expect(await messageState(transactionId)).toBe('delivered');
});

it('MessageBird: a status report as a GET, its JWT over API_PUBLIC_URL + path + query, marks the SMS undelivered', async () => {
  const signer = new MessageBirdSigner();
  const { path, vendorId, transactionId } = await sendThrough(
    'sms',
    'messagebird',
    { accessKey: messagebirdFake.accessKey, from: 'ACME', baseUrl: messagebirdFake.origin },
    signer.signingKey,
    { phone: '+15555550124' },
  );
  const report = { id: vendorId, recipient: '15555550124', status: 'delivery_failed', statusDatetime: new Date().toISOString() };
  const signed = signer.sign(PUBLIC_URL + path, report);
  const get = (query: string) => request(h.baseUrl).get(`${path}?${query}`).set(signed.headers);
  expect((await get(signed.query!.replace('delivery_failed', 'delivered'))).status).toBe(401);
  const res = await get(signed.query!);
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual({ recorded: 1, duplicates: 0, unknown: 0 });
  expect(await messageState(transactionId)).toBe('undelivered');
});
