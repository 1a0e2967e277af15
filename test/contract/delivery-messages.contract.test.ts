import { ChainRepository, Message, MessageRepository } from '@app/delivery';
import { deterministicId, newId } from '@app/kernel';
import { REPOSITORY_STORES, RepositoryStoreFixture } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';
import { job, message, newScope, notification, tick } from './delivery-fixtures';

interface Repositories {
  repository: MessageRepository;
  chains: ChainRepository;
  close(): Promise<void>;
}

/** The MessageRepository contract; every store adapter must pass it. */
function messageRepositoryContract(open: () => Promise<Repositories>) {
  let repository: MessageRepository;
  let chains: ChainRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, chains, close } = await open()));
  afterAll(() => close());

  /** Setup through the one write the engine uses: each message with changes to its chain; what each write answered for it. */
  const insert = async (...given: Message[]) => {
    const results = await chains.write(
      given.map((m) => ({ kind: 'changes', notificationId: m.notificationId, moves: [], messages: [m], deliveries: [], details: [] })),
    );
    return results.map((result, index) => result.messages.get(given[index].id)!);
  };

  it('writes a message once per id, even for concurrent redeliveries, and reads it back whole', async () => {
    const scope = newScope();
    const j = job(notification(scope), 'in-app');
    const full = message(j, {
      providerId: 'novu',
      subject: 'Hi',
      title: 'Title',
      cta: {
        type: 'redirect',
        data: { url: '/x', target: '_blank' },
        action: { status: 'pending', buttons: [{ type: 'primary', content: 'Go', url: '/go', target: '_self' }] },
      },
      avatar: 'https://avatar',
      data: { orderId: 'A-1', nested: { 'dotted.key': ['x', 2] } },
      actorSubscriberId: newId(),
      lastSeenDate: tick(),
      snoozedUntil: tick(),
      deliveredAt: [tick()],
      identifier: 'provider-1',
      email: 'a@example.com',
      phone: '+15555550100',
      deviceTokens: ['t1'],
      directWebhookUrl: 'https://hook',
      tags: ['x'],
      errorId: 'e',
      errorText: 'text',
    });
    const attempts = (await Promise.all([1, 2, 3].map(() => insert(full)))).flat();
    expect(attempts.filter((a) => a.created)).toHaveLength(1);
    for (const attempt of attempts) expect(attempt.message).toEqual(full);
    const [again] = await insert({ ...full, content: 'changed' });
    expect(again).toEqual({ message: full, created: false });
    expect(await repository.findById(scope, full.id)).toEqual(full);
  });

  it('stores block content and leaves optional fields out', async () => {
    const scope = newScope();
    const j = job(notification(scope), 'email');
    const blocks = message(j, { channel: 'email', content: [{ type: 'text', content: 'Hello' }] });
    delete blocks.stepId;
    await insert(blocks);
    const stored = await repository.findById(scope, blocks.id);
    expect(stored).toEqual(blocks);
    for (const field of [
      'stepId',
      'providerId',
      'errorId',
      'errorText',
      'subject',
      'title',
      'cta',
      'avatar',
      'data',
      'lastSeenDate',
      'identifier',
      'deviceTokens',
      'tags',
    ]) {
      expect(stored).not.toHaveProperty(field);
    }
  });

  it('deletes one message by id within its environment only, answering it once', async () => {
    const scope = newScope();
    const m = message(job(notification(scope), 'in-app'));
    await insert(m);
    expect(await repository.deleteById(newScope(), m.id)).toBeNull();
    expect(await repository.deleteById(scope, m.id)).toEqual(m);
    expect(await repository.deleteById(scope, m.id)).toBeNull();
    expect(await repository.findById(scope, m.id)).toBeNull();
  });

  it('keeps what it stored apart from the objects callers pass and get back', async () => {
    const scope = newScope();
    const given = message(job(notification(scope), 'in-app'), { deliveredAt: [tick()], tags: ['a'] });
    const kept = structuredClone(given);
    const [{ message: returned }] = await insert(given);
    given.tags!.push('changed by the caller');
    given.deliveredAt.push(tick());
    returned.payload.name = 'changed by the caller';
    const found = (await repository.findById(scope, given.id))!;
    found.deliveredAt.length = 0;
    expect(await repository.findById(scope, given.id)).toEqual(kept);
  });

  it('finds the messages of a job (one per target for fan-out)', async () => {
    const scope = newScope();
    const j = job(notification(scope), 'push');
    const targets = ['token-a', 'token-b'].map((target) => message(j, { id: deterministicId(j.id, target), channel: 'push' }));
    await insert(...targets);
    expect(await repository.findByJobId(j.id)).toEqual(targets);
    expect(await repository.findByJobId(newId())).toEqual([]);
  });

  it("finds a job's message that has the job's own id beside its others, in the order they were written", async () => {
    const scope = newScope();
    const j = job(notification(scope), 'in-app');
    const own = message(j, { id: j.id });
    const other = message(j, { id: deterministicId(j.id, 'other') });
    const elsewhere = message(job(notification(scope), 'in-app'), { id: deterministicId(j.id, 'elsewhere') });
    await insert(own, other, elsewhere);
    expect(await repository.findByJobId(j.id)).toEqual([own, other]);
  });

  it('lists newest first, filtered by channel, subscriber and transactions, with pages and the total count', async () => {
    const scope = newScope();
    const subscriber = newId();
    const [t1, t2, t3] = [newId(), newId(), newId()];
    const n1 = notification(scope, { transactionId: t1, subscriberId: subscriber });
    const n2 = notification(scope, { transactionId: t2 });
    const n3 = notification(scope, { transactionId: t3, subscriberId: subscriber });
    const created = [
      message(job(n1, 'a')),
      message(job(n1, 'b'), { channel: 'chat' }),
      message(job(n2, 'a')),
      message(job(n2, 'b'), { channel: 'chat' }),
      message(job(n3, 'a')),
    ];
    for (const m of created) await insert(m);
    const ids = (page: { items: { id: string }[] }) => page.items.map((m) => m.id);
    const newest = [...created].reverse();

    const all = await repository.list(scope, { page: 0, limit: 10 });
    expect(all.totalCount).toBe(5);
    expect(ids(all)).toEqual(newest.map((m) => m.id));
    expect(all.items[0]).toEqual(created[4]);

    const second = await repository.list(scope, { page: 1, limit: 2 });
    expect({ ids: ids(second), total: second.totalCount }).toEqual({ ids: [newest[2].id, newest[3].id], total: 5 });
    expect(await repository.list(scope, { page: 3, limit: 2 })).toEqual({ items: [], totalCount: 5 });

    const chat = await repository.list(scope, { channel: 'chat', page: 0, limit: 10 });
    expect({ ids: ids(chat), total: chat.totalCount }).toEqual({ ids: [created[3].id, created[1].id], total: 2 });
    const bySubscriber = await repository.list(scope, { subscriberId: subscriber, page: 0, limit: 10 });
    expect({ ids: ids(bySubscriber), total: bySubscriber.totalCount }).toEqual({ ids: [created[4].id, created[1].id, created[0].id], total: 3 });
    // a subscriber's in-app and other messages come from two reads, merged in order and paged as one list
    for (const [page, limit, expected] of [
      [1, 1, [created[1].id]],
      [1, 2, [created[0].id]],
      [2, 1, [created[0].id]],
      [3, 1, []],
    ] as const) {
      const paged = await repository.list(scope, { subscriberId: subscriber, page, limit });
      expect({ ids: ids(paged), total: paged.totalCount }).toEqual({ ids: expected, total: 3 });
    }
    const chatOfSubscriber = await repository.list(scope, { subscriberId: subscriber, channel: 'chat', page: 0, limit: 10 });
    expect({ ids: ids(chatOfSubscriber), total: chatOfSubscriber.totalCount }).toEqual({ ids: [created[1].id], total: 1 });
    const byTransactions = await repository.list(scope, { transactionIds: [t1, t3], page: 0, limit: 2 });
    expect({ ids: ids(byTransactions), total: byTransactions.totalCount }).toEqual({ ids: [created[4].id, created[1].id], total: 3 });
    const combined = await repository.list(scope, { transactionIds: [t1, t2], channel: 'in_app', subscriberId: subscriber, page: 0, limit: 10 });
    expect(ids(combined)).toEqual([created[0].id]);
    expect(await repository.list(scope, { transactionIds: [], page: 0, limit: 10 })).toEqual({ items: [], totalCount: 0 });
    expect(await repository.list(scope, { channel: 'unknown', page: 0, limit: 10 })).toEqual({ items: [], totalCount: 0 });
  });

  it('deletes the messages of a transaction, optionally one channel, answering those it deleted', async () => {
    const scope = newScope();
    const n = notification(scope);
    const inApp = message(job(n, 'a'));
    const chat = message(job(n, 'b'), { channel: 'chat' });
    const kept = message(job(notification(scope), 'a'));
    await insert(inApp, chat, kept);

    expect(await repository.deleteByTransaction(newScope(), n.transactionId)).toEqual([]);
    expect(await repository.deleteByTransaction(scope, n.transactionId, 'sms')).toEqual([]);
    expect(await repository.deleteByTransaction(scope, n.transactionId, 'chat')).toEqual([chat]);
    expect(await repository.findById(scope, chat.id)).toBeNull();
    expect(await repository.deleteByTransaction(scope, n.transactionId)).toEqual([inApp]);
    expect(await repository.deleteByTransaction(scope, n.transactionId)).toEqual([]);
    expect(await repository.findById(scope, kept.id)).toEqual(kept);
  });

  it('finds a message by the provider id it was sent under, only in its environment and for its provider', async () => {
    const scope = newScope();
    const older = message(job(notification(scope), 'email'), { channel: 'email', providerId: 'mailgun', identifier: '<abc@mg.example.com>' });
    const newer = message(job(notification(scope), 'email'), {
      channel: 'email',
      providerId: 'mailgun',
      identifier: '<abc@mg.example.com>',
      createdAt: tick(),
    });
    const other = message(job(notification(scope), 'email'), { channel: 'email', providerId: 'sendgrid', identifier: 'xyz' });
    await insert(older, newer, other);
    expect((await repository.findByProviderIdentifier(scope, 'mailgun', ['abc@mg.example.com', '<abc@mg.example.com>']))?.id).toBe(newer.id);
    expect((await repository.findByProviderIdentifier(scope, 'sendgrid', ['xyz']))?.id).toBe(other.id);
    expect(await repository.findByProviderIdentifier(scope, 'mailgun', ['xyz'])).toBeNull();
    expect(await repository.findByProviderIdentifier(scope, 'mailgun', [])).toBeNull();
    expect(await repository.findByProviderIdentifier(newScope(), 'sendgrid', ['xyz'])).toBeNull();
  });

  it('keeps the latest delivery state by the time the provider gives, whatever order events arrive in', async () => {
    const scope = newScope();
    const m = message(job(notification(scope), 'email'), { channel: 'email' });
    await insert(m);
    expect(await repository.findById(scope, m.id)).not.toHaveProperty('deliveryState');
    const delivered = tick();
    const opened = tick();
    expect(await repository.recordDeliveryState(m.id, { state: 'opened', at: opened })).toBe(true);
    expect(await repository.recordDeliveryState(m.id, { state: 'delivered', at: delivered })).toBe(false);
    expect(await repository.findById(scope, m.id)).toMatchObject({ deliveryState: 'opened', deliveryStateAt: opened });
    const clicked = tick();
    expect(await repository.recordDeliveryState(m.id, { state: 'clicked', at: clicked })).toBe(true);
    expect(await repository.findById(scope, m.id)).toMatchObject({ deliveryState: 'clicked', deliveryStateAt: clicked });
    expect(await repository.recordDeliveryState(newId(), { state: 'clicked', at: clicked })).toBe(false);
  });

  it('never shows a message to another environment', async () => {
    const scope = newScope();
    const m = message(job(notification(scope), 'a'));
    await insert(m);
    const other = newScope();
    expect(await repository.findById(other, m.id)).toBeNull();
    expect(await repository.findById({ ...scope, organizationId: other.organizationId }, m.id)).toBeNull();
    expect(await repository.list(other, { page: 0, limit: 10 })).toEqual({ items: [], totalCount: 0 });
    expect(await repository.list(other, { transactionIds: [m.transactionId], page: 0, limit: 10 })).toEqual({ items: [], totalCount: 0 });
  });
}

function openMessages(store: RepositoryStoreFixture) {
  return async (): Promise<Repositories> => {
    const { repositories, close } = await store.open();
    return { repository: repositories.messages, chains: repositories.chains, close };
  };
}

describe.each(REPOSITORY_STORES)('MessageRepository on $name', (store) => messageRepositoryContract(openMessages(store)));

describeMongoContract('MessageRepository', (store) => messageRepositoryContract(openMessages(store)));
