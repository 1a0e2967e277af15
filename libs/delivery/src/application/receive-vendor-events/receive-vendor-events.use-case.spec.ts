import { Integration } from '@app/integrations';
import { OutboundEvent, newId } from '@app/kernel';
import { job, message, notification } from '../../../../../test/contract/delivery-fixtures';
import { createMemoryStore, MemoryStore } from '../../../../../test/fakes/memory';
import { VendorDeliveryEvent } from '../../domain/delivery-event';
import { InvalidWebhookSignatureError, VendorEventBatch, VendorEventSource } from '../../ports/vendor-events.port';
import { InboundWebhookNotEnabledError, ReceiveVendorEvents } from './receive-vendor-events.use-case';

/** A vendor whose "signature" is a header equal to the key, and whose body is the events as JSON. */
class PlainSource implements VendorEventSource {
  readonly providerIds = ['sendgrid'];
  parse(request: { rawBody: Buffer; headers: Record<string, string | undefined> }, keys: { signingKey?: string }): VendorEventBatch {
    if (request.headers['x-key'] !== keys.signingKey) throw new InvalidWebhookSignatureError('bad');
    const body = JSON.parse(request.rawBody.toString(), (k, v) => (k === 'occurredAt' ? new Date(v) : v));
    return Array.isArray(body) ? { kind: 'events', events: body } : { kind: 'subscription', confirmUrl: body.confirmUrl, topic: 'topic-1' };
  }
}

describe('ReceiveVendorEvents', () => {
  let store: MemoryStore;
  let integration: Integration;
  const now = new Date('2030-01-01T00:00:00Z');

  /** Visits nothing: says the URLs it was asked to visit, answering as told. */
  const confirmer = { visited: [] as string[], answer: { confirmed: true } as { confirmed: boolean; error?: string } };
  /** What the use case published. */
  let events: OutboundEvent[] = [];

  async function setUp(options = { suppressAddresses: true }) {
    store = createMemoryStore();
    confirmer.visited = [];
    events = [];
    const organizationId = newId();
    const environmentId = newId();
    await store.environments.insertOrganization({ id: organizationId, name: 'Org', createdAt: now });
    await store.environments.insertEnvironment({
      id: environmentId,
      organizationId,
      name: 'Development',
      identifier: newId(),
      inboxHmac: false,
      createdAt: now,
    });
    integration = {
      id: newId(),
      organizationId,
      environmentId,
      name: 'SendGrid',
      identifier: 'sendgrid',
      providerId: 'sendgrid',
      channel: 'email',
      credentials: {},
      configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: 'k' },
      active: true,
      primary: true,
      priority: 1,
      conditions: [],
      fallbacks: [],
      deleted: false,
      createdAt: now,
      updatedAt: now,
    };
    await store.integrations.insert(integration);
    const n = notification({ organizationId, environmentId });
    const j = job(n, 'email', { type: 'email' });
    const m = message(j, { channel: 'email', providerId: 'sendgrid', identifier: 'vendor-1', email: 'Ada@Example.com' });
    await store.chains.write([{ kind: 'new', notification: n, jobs: [j], messages: [m], details: [] }]);
    const useCase = new ReceiveVendorEvents(
      store.environments,
      store.integrations,
      { get: (id) => (id === 'sendgrid' ? new PlainSource() : undefined), providerIds: () => ['sendgrid'] },
      store.messages,
      store.executionDetails,
      store.deliveryEvents,
      store.suppressions,
      {
        confirm: async (url: string) => {
          confirmer.visited.push(url);
          return confirmer.answer;
        },
      },
      store.subscribers,
      options,
      { now: () => now },
      { publish: async (_scope, published) => void events.push(...([] as OutboundEvent[]).concat(published)) },
    );
    const receive = (events: Partial<VendorDeliveryEvent>[] | { confirmUrl: string }, key = 'k') =>
      useCase.execute({
        environmentId,
        integrationId: integration.id,
        request: { rawBody: Buffer.from(JSON.stringify(events)), headers: { 'x-key': key }, url: '' },
      });
    return { m, j, useCase, receive, scope: { organizationId, environmentId } };
  }
  const event = (overrides: Partial<VendorDeliveryEvent> = {}): Partial<VendorDeliveryEvent> => ({
    key: newId(),
    type: 'delivered',
    vendorMessageIds: ['vendor-1'],
    occurredAt: now,
    raw: {},
    ...overrides,
  });

  it('applies an event once: a detail on the job, the message state, the record', async () => {
    const { m, j, receive, scope } = await setUp();
    const delivered = event();
    expect(await receive([delivered, delivered])).toEqual({ recorded: 1, duplicates: 1, unknown: 0 });
    expect(await receive([delivered])).toEqual({ recorded: 0, duplicates: 1, unknown: 0 });
    const details = await store.executionDetails.listByJobIds(scope, [j.id]);
    expect(details).toHaveLength(1);
    expect(details[0]).toMatchObject({ source: 'Webhook', status: 'Success', providerId: 'sendgrid' });
    expect(await store.messages.findById(scope, m.id)).toMatchObject({ deliveryState: 'delivered', deliveryStateAt: now });
    expect(await store.deliveryEvents.listByMessage(m.id)).toHaveLength(1);
  });

  it("publishes Novu's event of each vendor event, keyed by the message (one event per message and type); a replay publishes nothing", async () => {
    const { m, receive } = await setUp();
    const delivered = event();
    await receive([delivered, delivered]);
    await receive([delivered]);
    expect(events.map((e) => [e.type, e.key])).toEqual([['message.delivered', m.id]]);
    expect(await (events[0].object as () => Promise<Record<string, unknown>>)()).toMatchObject({ _id: m.id, channel: 'email', status: 'sent' });

    events = [];
    await receive([
      event({ type: 'opened' }),
      event({ type: 'spam_report' }),
      event({ type: 'bounced', reason: '550 unknown user' }),
      event({ type: 'dropped' }),
    ]);
    expect(events.map((e) => [e.type, e.key, e.error])).toEqual([
      ['message.seen', m.id, undefined],
      ['message.failed', m.id, { message: '550 unknown user', code: 'bounced' }],
      ['message.failed', m.id, { message: 'Provider reports the message dropped', code: 'dropped' }],
    ]);
  });

  it('finishes what a crashed run left: the detail is not written twice when the record was missing', async () => {
    const { j, receive, scope } = await setUp();
    const delivered = event();
    await receive([delivered]);
    await store.deliveryEvents.deleteOlderThan(new Date('2100-01-01'), 10); // as if the record never got written
    expect(await receive([delivered])).toEqual({ recorded: 1, duplicates: 0, unknown: 0 });
    expect(await store.executionDetails.listByJobIds(scope, [j.id])).toHaveLength(1);
  });

  it('acknowledges unknown messages and messages of another provider without recording', async () => {
    const { receive } = await setUp();
    expect(await receive([event({ vendorMessageIds: ['nope'] }), event({ messageId: newId(), vendorMessageIds: [] })])).toEqual({
      recorded: 0,
      duplicates: 0,
      unknown: 2,
    });
  });

  it('suppresses the address (lower case) on a hard bounce or spam report, and not on a soft bounce or when turned off', async () => {
    const { receive, scope } = await setUp();
    await receive([event({ type: 'bounced', permanent: false })]);
    expect(await store.suppressions.find(scope, 'ada@example.com')).toBeNull();
    await receive([event({ type: 'bounced', permanent: true, reason: '550' })]);
    expect(await store.suppressions.find(scope, 'ada@example.com')).toMatchObject({ reason: 'hard_bounce', channel: 'email', detail: '550' });
    const off = await setUp({ suppressAddresses: false });
    await off.receive([event({ type: 'spam_report' })]);
    expect(await store.suppressions.find(off.scope, 'ada@example.com')).toBeNull();
  });

  it('confirms a verified subscription handshake by visiting its URL, and says when the visit failed', async () => {
    const { receive } = await setUp();
    const confirmUrl = 'https://sns.example.com/?Action=ConfirmSubscription&Token=t';
    expect(await receive({ confirmUrl })).toEqual({ recorded: 0, duplicates: 0, unknown: 0, subscription: { topic: 'topic-1', confirmed: true } });
    expect(confirmer.visited).toEqual([confirmUrl]);
    confirmer.answer = { confirmed: false, error: 'HTTP 403' };
    expect(await receive({ confirmUrl })).toMatchObject({ subscription: { confirmed: false } });
    await expect(receive({ confirmUrl }, 'wrong')).rejects.toBeInstanceOf(InvalidWebhookSignatureError);
    expect(confirmer.visited).toHaveLength(2);
  });

  it('refuses a bad signature and a disabled integration, recording nothing', async () => {
    const { j, receive, scope, useCase } = await setUp();
    await expect(receive([event()], 'wrong')).rejects.toBeInstanceOf(InvalidWebhookSignatureError);
    expect(await store.executionDetails.listByJobIds(scope, [j.id])).toEqual([]);
    await store.integrations.replace(scope, { ...integration, configurations: { inboundWebhookEnabled: false } }, integration.updatedAt);
    await expect(receive([event()])).rejects.toBeInstanceOf(InboundWebhookNotEnabledError);
    await expect(
      useCase.execute({ environmentId: 'x', integrationId: integration.id, request: { rawBody: Buffer.alloc(0), headers: {}, url: '' } }),
    ).rejects.toBeInstanceOf(InboundWebhookNotEnabledError);
  });
});
