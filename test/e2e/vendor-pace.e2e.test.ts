import { SendgridFake } from '../fakes/email/sendgrid.fake';
import { TwilioFake } from '../fakes/sms/twilio.fake';
import { FakeReply, FakeRequest } from '../fakes/vendor-fake';
import { ServiceHarness, buildService } from '../support/service-processes';
import { uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

/**
 * Deliveries at the vendor's pace, the built service against a loopback Twilio, in each mode
 * (production: an api and two workers sharing the limit through Redis): a rate limit holds across
 * the workers and no message fails for it, a 429 defers the message without spending an attempt
 * (its provider-selected detail written once), emails alike share SendGrid requests, in-app is not
 * held by a hanging email integration; and a vendor that keeps failing or pushes back: its circuit
 * opens and the deliveries go to its fallback, or without fallbacks to the channel's primary.
 */
jest.setTimeout(240_000);

const TERMINAL = ['completed', 'failed', 'canceled', 'merged', 'skipped'];
const MODES = ['embedded', 'production'] as const;
const PER_SECOND = 2;

/** Twilio that notes when each send arrived. */
class TimedTwilioFake extends TwilioFake {
  readonly arrivals: number[] = [];
  protected override handle(request: FakeRequest): FakeReply {
    if (request.method === 'POST') this.arrivals.push(Date.now());
    return super.handle(request);
  }
}

/** SendGrid that, while `holding`, keeps each send open without an answer (a vendor that hangs). */
class HangingSendgridFake extends SendgridFake {
  holding = false;
  held = 0;
  protected override handle(request: FakeRequest): FakeReply {
    if (!this.holding || request.method !== 'POST') return super.handle(request);
    this.held++;
    return { status: 0 };
  }
}

let buildDir: string;
beforeAll(async () => {
  buildDir = await buildService();
}, 240_000);

describe.each(MODES)('vendor pace (%s mode)', (mode) => {
  let h: ServiceHarness;
  let twilio: TimedTwilioFake;
  let sendgrid: SendgridFake;
  let hanging: HangingSendgridFake;
  const subscribers = Array.from({ length: 6 }, (_, i) => ({
    subscriberId: uniqueName(`pace-${i}`),
    phone: `+1555000${1000 + i}`,
    email: `pace-${i}@example.com`,
  }));

  beforeAll(async () => {
    twilio = await new TimedTwilioFake().start();
    sendgrid = await new SendgridFake().start();
    hanging = await new HangingSendgridFake().start();
    h = await ServiceHarness.create(buildDir);
    if (mode === 'embedded') await h.startEmbedded();
    else {
      await h.startApi();
      await h.startWorker();
      await h.startWorker();
    }
    await h.expect(201, 'POST', '/v1/integrations', {
      providerId: 'twilio',
      channel: 'sms',
      identifier: 'twilio-paced',
      credentials: { accountSid: twilio.accountSid, token: twilio.token, from: '+15550000000', baseUrl: twilio.origin },
      rateLimit: { perSecond: PER_SECOND },
      active: true,
    });
    await h.expect(201, 'POST', '/v1/integrations', {
      providerId: 'sendgrid',
      channel: 'email',
      identifier: 'sendgrid-batched',
      credentials: { apiKey: sendgrid.apiKey, from: 'news@example.com', senderName: 'News', baseUrl: sendgrid.origin },
      active: true,
    });
    await h.expect(201, 'POST', '/v1/integrations', {
      providerId: 'sendgrid',
      channel: 'email',
      identifier: 'sendgrid-one-at-a-time',
      credentials: { apiKey: hanging.apiKey, from: 'news@example.com', senderName: 'News', baseUrl: hanging.origin },
      maxConcurrency: 1,
      active: true,
    });
    for (const subscriber of subscribers) await h.expect(201, 'POST', '/v2/subscribers', subscriber);
  }, 240_000);

  afterAll(async () => {
    await h?.close();
    await twilio?.close();
    await sendgrid?.close();
    await hanging?.close();
  }, 60_000);

  async function workflow(steps: unknown[]): Promise<string> {
    const identifier = uniqueName('wf').toLowerCase();
    await h.expect(201, 'POST', '/v1/workflows', { name: identifier, identifier, active: true, steps });
    return identifier;
  }
  const sms = { template: { type: 'sms', content: 'Hi {{subscriber.subscriberId}}' } };

  async function trigger(name: string, to: string[], overrides: Record<string, unknown> = {}): Promise<string> {
    return (await h.expect(201, 'POST', '/v1/events/trigger', { name, to, overrides })).data.transactionId;
  }
  const notifications = async (transactionId: string): Promise<any[]> =>
    (await h.expect(200, 'GET', `/v1/notifications?${new URLSearchParams({ transactionId }).toString()}`)).data;
  const settled = (transactionId: string, count: number) =>
    waitFor(async () => {
      const found = await notifications(transactionId);
      return found.length === count && found.every((n) => n.jobs.every((job: any) => TERMINAL.includes(job.status))) && found;
    }, 90_000);

  it('holds the rate limit across the workers: every message sent, none failed, the fake never sees a second with more than its share', () =>
    h.withOutputs(async () => {
      twilio.reset();
      twilio.arrivals.length = 0;
      const found = await settled(
        await trigger(
          await workflow([sms]),
          subscribers.map((s) => s.subscriberId),
        ),
        subscribers.length,
      );
      expect(found.flatMap((n) => n.jobs.map((job: any) => job.status))).toEqual(subscribers.map(() => 'completed'));
      expect(twilio.accepted).toHaveLength(subscribers.length);
      expect(twilio.refusals).toEqual([]);
      // Counted in the limiter's one-second windows: any second of arrivals holds at most two windows' share.
      const busiest = Math.max(...twilio.arrivals.map((at) => twilio.arrivals.filter((other) => other >= at && other < at + 1_000).length));
      expect(busiest).toBeLessThanOrEqual(2 * PER_SECOND);
    }));

  it('a 429 defers the message to the time the vendor named: sent, with the pushback in its details and no retry spent', () =>
    h.withOutputs(async () => {
      twilio.reset();
      twilio.failNext('rate_limited');
      const [notification] = await settled(await trigger(await workflow([sms]), [subscribers[0].subscriberId]), 1);
      const [job] = notification.jobs;
      expect(job.status).toBe('completed');
      const details: string[] = job.executionDetails.map((detail: any) => detail.detail);
      expect(details).toContainEqual(expect.stringMatching(/^The provider asked to slow down/));
      expect(details).not.toContain('Provider error, retry scheduled');
      // Written once, not again when the deferred job came back.
      expect(details.filter((detail) => detail === 'twilio provider was selected')).toHaveLength(1);
      expect(twilio.accepted).toHaveLength(1);
    }));

  it('emails alike to many subscribers: whether or not they share a SendGrid request, each message is sent with its own id in custom_args', () =>
    h.withOutputs(async () => {
      sendgrid.reset();
      const email = { template: { type: 'email', subject: 'News', content: [{ type: 'text', content: '<p>The same for everyone</p>' }] } };
      const transactionId = await trigger(
        await workflow([email]),
        subscribers.map((s) => s.subscriberId),
      );
      const found = await settled(transactionId, subscribers.length);
      expect(found.flatMap((n) => n.jobs.map((job: any) => job.status))).toEqual(subscribers.map(() => 'completed'));
      const messages = (await h.expect(200, 'GET', `/v1/messages?${new URLSearchParams({ transactionId, limit: '100' }).toString()}`)).data;
      expect(messages.map((message: any) => message.status)).toEqual(subscribers.map(() => 'sent'));
      expect(sendgrid.refusals).toEqual([]);
      const personalizations = sendgrid.accepted.flatMap((request) => {
        const body = request.json();
        return body.personalizations.map((p: any) => ({ to: p.to[0].email, id: (p.custom_args ?? body.custom_args).id }));
      });
      expect(personalizations.map((p) => p.to).sort()).toEqual(subscribers.map((s) => s.email).sort());
      expect(personalizations.map((p) => p.id).sort()).toEqual(messages.map((message: any) => message._id).sort());
    }));

  it('in-app deliveries are not held by an email integration whose one call in flight hangs', () =>
    h.withOutputs(async () => {
      hanging.holding = true;
      const email = { template: { type: 'email', subject: 'Held', content: [{ type: 'text', content: '<p>Held</p>' }] } };
      const everyone = subscribers.map((s) => s.subscriberId);
      const emails = await trigger(await workflow([email]), everyone, { email: { integrationIdentifier: 'sendgrid-one-at-a-time' } });
      await waitFor(async () => hanging.held >= 1, 60_000);
      const inApp = await settled(await trigger(await workflow([{ template: { type: 'in_app', content: 'Not held' } }]), everyone), subscribers.length);
      expect(inApp.flatMap((n) => n.jobs.map((job: any) => job.status))).toEqual(subscribers.map(() => 'completed'));
      // maxConcurrency 1 and the one call in flight unanswered: no email went out meanwhile.
      const held = await notifications(emails);
      expect(held.flatMap((n) => n.jobs.map((job: any) => job.status)).filter((status: string) => status === 'completed')).toEqual([]);
      expect(hanging.held).toBeGreaterThanOrEqual(1);
    }));
});

describe.each(MODES)('a vendor that keeps failing (%s mode)', (mode) => {
  let h: ServiceHarness;
  let flaky: TwilioFake;
  let backup: TwilioFake;
  let pushy: TwilioFake;
  let failing: TwilioFake;
  let backupId: string;
  const subscribers = Array.from({ length: 3 }, (_, i) => ({ subscriberId: uniqueName(`circuit-${i}`), phone: `+1555000${2000 + i}` }));

  beforeAll(async () => {
    [flaky, backup, pushy, failing] = await Promise.all([1, 2, 3, 4].map(() => new TwilioFake().start()));
    // The circuit opens after two failures in a row.
    h = await ServiceHarness.create(buildDir, { env: { VENDOR_CIRCUIT_FAILURES: '2', VENDOR_CIRCUIT_OPEN_SECONDS: '60' } });
    if (mode === 'embedded') await h.startEmbedded();
    else {
      await h.startApi();
      await h.startWorker();
    }
    const twilio = (identifier: string, fake: TwilioFake, extra: Record<string, unknown> = {}) =>
      h.expect(201, 'POST', '/v1/integrations', {
        providerId: 'twilio',
        channel: 'sms',
        identifier,
        credentials: { accountSid: fake.accountSid, token: fake.token, from: '+15550000000', baseUrl: fake.origin },
        rateLimit: { perSecond: 100 },
        active: true,
        ...extra,
      });
    const { data } = await twilio('twilio-flaky', flaky);
    backupId = (await twilio('twilio-backup', backup)).data._id;
    await h.expect(200, 'PUT', `/v1/integrations/${data._id}`, { fallbacks: ['twilio-backup'] });
    // No fallbacks of their own; selected by the trigger's payload.
    const routed = (route: string) => ({ conditions: [{ value: 'AND', children: [{ on: 'payload', field: 'route', operator: 'EQUAL', value: route }] }] });
    await twilio('twilio-pushy', pushy, routed('pushy'));
    await twilio('twilio-failing', failing, routed('failing'));
    for (const subscriber of subscribers) await h.expect(201, 'POST', '/v2/subscribers', subscriber);
  }, 240_000);

  afterAll(async () => {
    await h?.close();
    await Promise.all([flaky, backup, pushy, failing].map((fake) => fake?.close()));
  }, 60_000);

  it("opens the integration's circuit: the retries go to the fallback integration, each message sent there", () =>
    h.withOutputs(async () => {
      flaky.failNext('unavailable', 'unavailable', 'unavailable', 'unavailable', 'unavailable', 'unavailable');
      const identifier = uniqueName('wf').toLowerCase();
      await h.expect(201, 'POST', '/v1/workflows', { name: identifier, identifier, active: true, steps: [{ template: { type: 'sms', content: 'Hi' } }] });
      const { data } = await h.expect(201, 'POST', '/v1/events/trigger', { name: identifier, to: subscribers.map((s) => s.subscriberId) });
      const found = await waitFor(async () => {
        const { data: notifications } = await h.expect(
          200,
          'GET',
          `/v1/notifications?${new URLSearchParams({ transactionId: data.transactionId }).toString()}`,
        );
        return (
          notifications.length === subscribers.length &&
          notifications.every((n: any) => n.jobs.every((job: any) => TERMINAL.includes(job.status))) &&
          notifications
        );
      }, 90_000);
      expect(found.flatMap((n: any) => n.jobs.map((job: any) => job.status))).toEqual(subscribers.map(() => 'completed'));
      expect(flaky.accepted).toHaveLength(0);
      expect(backup.accepted).toHaveLength(subscribers.length);
      const details: string[] = found.flatMap((n: any) => n.jobs[0].executionDetails.map((detail: any) => detail.detail));
      expect(details).toContainEqual(expect.stringMatching(/^The integration's circuit opened/));
      expect(details).toContainEqual(expect.stringMatching(/^The integration's circuit is open: the next integration/));
    }));

  async function settledJobs(to: string[], payload: Record<string, unknown>): Promise<{ jobs: any[]; transactionId: string }> {
    const identifier = uniqueName('wf').toLowerCase();
    await h.expect(201, 'POST', '/v1/workflows', { name: identifier, identifier, active: true, steps: [{ template: { type: 'sms', content: 'Hi' } }] });
    const { data } = await h.expect(201, 'POST', '/v1/events/trigger', { name: identifier, to, payload });
    const query = new URLSearchParams({ transactionId: data.transactionId }).toString();
    const found = await waitFor(async () => {
      const { data: notifications } = await h.expect(200, 'GET', `/v1/notifications?${query}`);
      return notifications.length === to.length && notifications.every((n: any) => n.jobs.every((job: any) => TERMINAL.includes(job.status))) && notifications;
    }, 90_000);
    return { jobs: found.flatMap((n: any) => n.jobs), transactionId: data.transactionId };
  }

  it("with no fallbacks of its own, an integration the vendor paused hands the delivery to the channel's primary; its message says where it went", () =>
    h.withOutputs(async () => {
      // The first test left twilio-flaky's circuit open: the primary is the backup now.
      await h.expect(201, 'POST', `/v1/integrations/${backupId}/set-primary`, {});
      backup.reset();
      pushy.failNext('rate_limited');
      const {
        jobs: [job],
        transactionId,
      } = await settledJobs([subscribers[0].subscriberId], { route: 'pushy' });
      expect(job.status).toBe('completed');
      expect(pushy.requests).toHaveLength(1);
      expect(pushy.accepted).toHaveLength(0);
      expect(backup.accepted).toHaveLength(1);
      const handOver = job.executionDetails.find((detail: any) =>
        /^The provider asked the integration to slow down and it has no fallbacks/.test(detail.detail),
      );
      expect(JSON.parse(handOver.raw)).toEqual({ from: 'twilio-pushy', to: 'twilio-backup', reason: 'pushback' });
      const { data: messages } = await h.expect(200, 'GET', `/v1/messages?${new URLSearchParams({ transactionId }).toString()}`);
      expect(messages.map((message: any) => [message.status, message.errorText ?? null]).sort()).toEqual([
        ['error', 'Not sent through twilio-pushy (pushback): the delivery went to twilio-backup'],
        ['sent', null],
      ]);
    }));

  it("with no fallbacks of its own, an integration whose circuit opened hands the retries to the channel's primary", () =>
    h.withOutputs(async () => {
      backup.reset();
      failing.failNext('unavailable', 'unavailable', 'unavailable', 'unavailable', 'unavailable', 'unavailable');
      const { jobs } = await settledJobs(
        subscribers.map((s) => s.subscriberId),
        { route: 'failing' },
      );
      expect(jobs.map((job: any) => job.status)).toEqual(subscribers.map(() => 'completed'));
      expect(failing.accepted).toHaveLength(0);
      expect(backup.accepted).toHaveLength(subscribers.length);
      const details: string[] = jobs.flatMap((job: any) => job.executionDetails.map((detail: any) => detail.detail));
      expect(details).toContainEqual(expect.stringMatching(/^The integration's circuit is open and it has no fallbacks: another active integration/));
    }));
});
