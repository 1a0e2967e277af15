import { TEST_CA_PATH } from '../fakes/vendor-fake';
import { Fleet, FleetMember, startFleet } from '../support/provider-fleet';
import { ServiceHarness, buildService } from '../support/service-processes';
import { uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

/**
 * Every provider sending for real: the built service as an operator runs it, in each mode, with an
 * integration per provider whose `baseUrl` (or SMTP host) points at a loopback fake of the vendor.
 * Each fake checks what its vendor checks (paths, auth, signatures, bodies); the service trusts the
 * test CA through NODE_EXTRA_CA_CERTS, as it would trust a private one. One workflow with email,
 * SMS, chat and push steps and one subscriber holding credentials for every chat and push provider:
 * each fake receives exactly one correct request. Then a failover and a dead push token.
 */
jest.setTimeout(240_000);

const TERMINAL = ['completed', 'failed', 'canceled', 'merged', 'skipped'];
const SUBSCRIBER = { email: 'ada@example.com', phone: '+15551234567' };
const MODES = ['embedded', 'production'] as const;

let buildDir: string;
beforeAll(async () => {
  buildDir = await buildService();
}, 240_000);

describe.each(MODES)('every provider delivers through its vendor protocol (%s mode)', (mode) => {
  let h: ServiceHarness;
  let fleet: Fleet;
  const subscriberId = uniqueName('ada');
  const integrationIds = new Map<string, string>();

  beforeAll(async () => {
    fleet = await startFleet();
    h = await ServiceHarness.create(buildDir, { env: { NODE_EXTRA_CA_CERTS: TEST_CA_PATH } });
    if (mode === 'embedded') {
      await h.startEmbedded();
    } else {
      await h.startApi();
      await h.startWorker();
    }
    for (const member of fleet.members) {
      const { data } = await h.expect(201, 'POST', '/v1/integrations', {
        providerId: member.providerId,
        channel: member.channel,
        identifier: member.providerId,
        credentials: member.credentials(),
        active: true,
      });
      integrationIds.set(member.providerId, data._id);
    }
    await h.expect(201, 'POST', '/v2/subscribers', { subscriberId, ...SUBSCRIBER });
    for (const member of fleet.members) {
      const credentials = member.subscriberCredentials?.();
      if (!credentials) continue;
      await h.expect(200, 'PUT', `/v1/subscribers/${subscriberId}/credentials`, {
        providerId: member.providerId,
        integrationIdentifier: member.providerId,
        credentials,
      });
    }
  }, 240_000);

  afterAll(async () => {
    await h?.close();
    await fleet?.close();
  }, 60_000);

  const byChannel = (channel: FleetMember['channel']) => fleet.members.filter((member) => member.channel === channel);

  async function workflow(steps: unknown[]): Promise<string> {
    const identifier = uniqueName('wf').toLowerCase();
    await h.expect(201, 'POST', '/v1/workflows', { name: identifier, identifier, active: true, steps });
    return identifier;
  }

  const email = {
    template: { type: 'email', subject: 'Hello {{payload.name}}', content: [{ type: 'text', content: '<p>Hi {{payload.name}}, welcome.</p>' }] },
  };
  const sms = { template: { type: 'sms', content: 'Hi {{payload.name}}' } };
  const chat = { template: { type: 'chat', content: 'Hi {{payload.name}}' } };
  const push = { template: { type: 'push', title: 'Welcome', content: 'Hi {{payload.name}}' } };

  async function trigger(name: string, overrides: Record<string, unknown> = {}): Promise<string> {
    const { data } = await h.expect(201, 'POST', '/v1/events/trigger', { name, to: subscriberId, payload: { name: 'Ada' }, overrides });
    return data.transactionId;
  }

  async function settled(transactionId: string): Promise<any> {
    return waitFor(async () => {
      const { data } = await h.expect(200, 'GET', `/v1/notifications?${new URLSearchParams({ transactionId }).toString()}`);
      return data.length === 1 && data[0].jobs.every((job: any) => TERMINAL.includes(job.status)) && data[0];
    }, 60_000);
  }

  async function messages(transactionId: string): Promise<any[]> {
    return (await h.expect(200, 'GET', `/v1/messages?${new URLSearchParams({ transactionId, limit: '100' }).toString()}`)).data;
  }

  /** Each member's accepted sends, for an assertion that names the provider. */
  const tally = (members: FleetMember[]) => Object.fromEntries(members.map((member) => [member.providerId, member.accepted()]));

  it('one trigger: the primary email and SMS integrations and every chat and push provider get exactly one correct request', () =>
    h.withOutputs(async () => {
      const transactionId = await trigger(await workflow([email, sms, chat, push]));
      const notification = await settled(transactionId);
      expect(notification.jobs.map((job: any) => [job.type, job.status])).toEqual([
        ['email', 'completed'],
        ['sms', 'completed'],
        ['chat', 'completed'],
        ['push', 'completed'],
      ]);
      const [primaryEmail, ...otherEmail] = byChannel('email');
      const [primarySms, ...otherSms] = byChannel('sms');
      const everyChatAndPush = [...byChannel('chat'), ...byChannel('push')];
      expect(tally([primaryEmail, primarySms, ...everyChatAndPush])).toEqual(
        Object.fromEntries([primaryEmail, primarySms, ...everyChatAndPush].map((m) => [m.providerId, 1])),
      );
      expect(tally([...otherEmail, ...otherSms])).toEqual(Object.fromEntries([...otherEmail, ...otherSms].map((m) => [m.providerId, 0])));
      expect(fleet.members.flatMap((member) => member.refusals().map((reason) => `${member.providerId}: ${reason}`))).toEqual([]);

      const sent = await messages(transactionId);
      expect(sent).toHaveLength(2 + everyChatAndPush.length);
      expect(sent.filter((message) => message.status !== 'sent')).toEqual([]);
      expect(new Set(sent.map((message) => message.providerId))).toEqual(
        new Set([primaryEmail.providerId, primarySms.providerId, ...everyChatAndPush.map((m) => m.providerId)]),
      );
    }));

  it('every other email and SMS provider sends when the trigger names its integration', () =>
    h.withOutputs(async () => {
      const name = await workflow([email, sms]);
      const others = [byChannel('email').slice(1), byChannel('sms').slice(1)];
      const rounds = Math.max(others[0].length, others[1].length);
      for (let round = 0; round < rounds; round++) {
        const [emailMember, smsMember] = [others[0][round], others[1][round]];
        const transactionId = await trigger(name, {
          ...(emailMember ? { email: { integrationIdentifier: emailMember.providerId } } : {}),
          ...(smsMember ? { sms: { integrationIdentifier: smsMember.providerId } } : {}),
        });
        const notification = await settled(transactionId);
        expect({ round, statuses: notification.jobs.map((job: any) => job.status) }).toEqual({ round, statuses: ['completed', 'completed'] });
      }
      expect(tally(fleet.members)).toEqual(Object.fromEntries(fleet.members.map((member) => [member.providerId, 1])));
      expect(fleet.members.flatMap((member) => member.refusals().map((reason) => `${member.providerId}: ${reason}`))).toEqual([]);
    }));

  it('failover: an integration that fails for good hands the message to its fallback, each hop in the details', () =>
    h.withOutputs(async () => {
      const [primary, fallback] = [fleet.member('sendgrid'), fleet.member('mailgun')];
      await h.expect(200, 'PUT', `/v1/integrations/${integrationIds.get('sendgrid')}`, { fallbacks: ['mailgun'] });
      const before = { primary: primary.accepted(), fallback: fallback.accepted() };
      primary.failNext('permanent');
      const transactionId = await trigger(await workflow([email]), { email: { integrationIdentifier: 'sendgrid' } });
      const notification = await settled(transactionId);
      expect(notification.jobs[0]).toMatchObject({ status: 'completed', providerId: 'mailgun' });
      expect({ primary: primary.accepted(), fallback: fallback.accepted() }).toEqual({ primary: before.primary, fallback: before.fallback + 1 });
      const details = notification.jobs[0].executionDetails.map((detail: any) => detail.detail);
      expect(details).toEqual([
        'sendgrid provider was selected',
        'Unexpected provider error',
        'Fallback integration selected',
        'mailgun provider was selected',
        'Message sent',
      ]);
      const hops = (await messages(transactionId)).map((message) => [message.providerId, message.status]).sort();
      expect(hops).toEqual([
        ['mailgun', 'sent'],
        ['sendgrid', 'error'],
      ]);
    }));

  it('a device token the vendor reports dead is removed from the subscriber, with a detail saying so', () =>
    h.withOutputs(async () => {
      const fcm = fleet.member('fcm');
      const [token] = fcm.subscriberCredentials!().deviceTokens!;
      fcm.failNext('invalid_recipient');
      const transactionId = await trigger(await workflow([push]));
      const notification = await settled(transactionId);
      const details = notification.jobs[0].executionDetails.map((detail: any) => detail.detail);
      expect(details).toContain('Device token removed from the subscriber: the provider reports it is no longer registered');
      // The other push providers still delivered, so the step completed.
      expect(notification.jobs[0].status).toBe('completed');
      const { data: subscriber } = await h.expect(200, 'GET', `/v2/subscribers/${subscriberId}`);
      const fcmEntry = subscriber.channels.find((entry: any) => entry.providerId === 'fcm');
      expect(fcmEntry.credentials.deviceTokens ?? []).not.toContain(token);
      const fcmMessage = (await messages(transactionId)).find((message) => message.providerId === 'fcm');
      expect(fcmMessage).toMatchObject({ status: 'error' });
    }));
});
