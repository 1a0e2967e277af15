import { createTransport } from 'nodemailer';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { LoopbackReceiver } from '../../libs/providers/src/testing/loopback-receiver';
import { SmtpFake } from '../fakes/email/smtp.fake';
import { freePort } from '../support/service-processes';
import { TestApp, startTestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const DOMAIN = 'replies.example.test';

/**
 * Reply callbacks end to end in the embedded mode: an email step with replyCallback.active goes
 * out (through a real SMTP server, smtp-server) with a signed Reply-To at INBOUND_MAIL_DOMAIN; a real
 * SMTP client (nodemailer) answers it to the service's inbound mail receiver; the parsed reply is
 * POSTed to replyCallback.url, signed with the environment's reply-callback secret. Mail to any
 * other address is refused at RCPT TO.
 */
describe('reply callbacks', () => {
  let t: TestApp;
  let smtp: SmtpFake;
  let receiver: LoopbackReceiver;
  let inboundPort: number;

  beforeAll(async () => {
    smtp = await new SmtpFake({ tls: 'none' }).start();
    receiver = await LoopbackReceiver.start();
    inboundPort = await freePort();
    t = await startTestApp({
      env: { INBOUND_MAIL_DOMAIN: DOMAIN, INBOUND_MAIL_PORT: String(inboundPort), HOST: '127.0.0.1', WEBHOOK_RETRY_DELAYS: '200ms,200ms' },
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    await smtp.stop();
  });

  const client = () => createTransport({ host: '127.0.0.1', port: inboundPort, secure: false, ignoreTLS: true, tls: { rejectUnauthorized: false } });

  async function sendEmailStep() {
    const api = t.api();
    await api.post('/v1/integrations').send({ providerId: 'nodemailer', channel: 'email', active: true, credentials: smtp.credentials() }).expect(201);
    const identifier = uniqueName('reply').toLowerCase();
    const wf = await api
      .post('/v1/workflows')
      .send({
        name: identifier,
        identifier,
        active: true,
        steps: [
          {
            template: { type: 'email', subject: 'Your order', content: 'Reply to this email' },
            replyCallback: { active: true, url: receiver.url('/replies') },
          },
        ],
      })
      .expect(201);
    const subscriberId = uniqueName('sub');
    await api.post('/v2/subscribers').send({ subscriberId, email: 'ada@example.com' }).expect(201);
    const trigger = await api.post('/v1/events/trigger').send({ name: identifier, to: subscriberId }).expect(201);
    const [sent] = await smtp.waitFor(smtp.received.length + 1, 20_000).then((all) => all.slice(-1));
    return { wf: wf.body.data, subscriberId, transactionId: trigger.body.data.transactionId as string, sent };
  }

  it('sends the email with a signed Reply-To, and posts the parsed reply to the callback URL, signed', async () => {
    const { wf, subscriberId, transactionId, sent } = await sendEmailStep();
    const replyTo = sent.parsed.replyTo?.[0]?.address as string;
    expect(replyTo).toMatch(new RegExp(`^r-[0-9a-f]{24}-[0-9a-f]{20}@${DOMAIN.replace(/\./g, '\\.')}$`));

    await client().sendMail({
      from: 'Ada <ada@example.com>',
      to: replyTo,
      subject: 'Re: Your order',
      text: 'Yes please, ship it.',
      html: '<p>Yes please, ship it.</p>',
      messageId: `<${uniqueName('m')}@example.com>`,
      attachments: [{ filename: 'receipt.txt', content: 'paid in full' }],
    });

    const [callback] = await waitFor(
      async () => receiver.requests.filter((r) => r.path === '/replies').length > 0 && receiver.requests.filter((r) => r.path === '/replies'),
    );
    const secret = (await t.api().get('/v2/outbound-webhooks/reply-callback-secret').expect(200)).body.data.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const headers = Object.fromEntries(Object.entries(callback.headers).map(([k, v]) => [k, String(v)]));
    const event = new StandardWebhook(secret).verify(callback.rawBody, headers) as any;
    expect(new SvixWebhook(secret).verify(callback.rawBody, headers)).toEqual(event);
    expect(event).toMatchObject({
      type: 'reply.received',
      data: {
        from: { address: 'ada@example.com', name: 'Ada' },
        to: [replyTo],
        subject: 'Re: Your order',
        text: expect.stringContaining('Yes please, ship it.'),
        html: expect.stringContaining('<p>Yes please, ship it.</p>'),
        attachments: [{ name: 'receipt.txt', contentType: 'text/plain', size: 12 }],
        transactionId,
        subscriberId,
        workflowId: wf.triggers[0].identifier,
        _workflowId: wf._id,
        stepId: wf.steps[0]._id,
      },
    });
    // the same secret on every call, made once per environment
    expect((await t.api().get('/v2/outbound-webhooks/reply-callback-secret').expect(200)).body.data.secret).toBe(secret);
  });

  it('refuses mail to any other address at RCPT TO, a forged reply address included', async () => {
    const { sent } = await sendEmailStep();
    const replyTo = sent.parsed.replyTo?.[0]?.address as string;
    const forged = replyTo.replace(/-([0-9a-f])([0-9a-f]{19})@/, (_m, first: string, rest: string) => `-${first === 'a' ? 'b' : 'a'}${rest}@`);
    for (const to of [`someone@${DOMAIN}`, forged, 'ada@example.com']) {
      const refused = await client()
        .sendMail({ from: 'mallory@example.com', to, subject: 'hi', text: 'hi' })
        .then(
          () => undefined,
          (error: { responseCode?: number }) => error,
        );
      expect(refused?.responseCode).toBe(550);
    }
  });
});
