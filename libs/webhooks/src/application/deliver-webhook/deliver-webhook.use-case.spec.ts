import { AppConfig } from '@app/config';
import { Clock, JobQueue, NewJob } from '@app/kernel';
import { InMemoryWebhookDeliveryRepository, InMemoryWebhookEndpointRepository } from '../../../../../test/fakes/memory';
import { WebhookEndpoint } from '../../domain/webhook-endpoint';
import { WebhookResponse, WebhookSender } from '../../ports/webhook-sender.port';
import { PublishOutboundEvent } from '../publish-event/publish-outbound-event.use-case';
import { RecoverWebhookDeliveries } from '../recover-deliveries/recover-webhook-deliveries.use-case';
import { WebhookJobData } from '../webhook-queue';
import { DeliverWebhook } from './deliver-webhook.use-case';

const scope = { organizationId: 'org', environmentId: 'env' };

/** The outbox and its attempts with the in-memory repositories, a scripted endpoint and a queue that records what is added. */
function setup(answers: WebhookResponse[], retryDelaysMs = [5_000, 30_000]) {
  let now = new Date('2026-01-01T00:00:00.000Z');
  const clock: Clock = { now: () => new Date(now) };
  const endpoints = new InMemoryWebhookEndpointRepository();
  const deliveries = new InMemoryWebhookDeliveryRepository();
  const added: NewJob<WebhookJobData>[] = [];
  const held = new Set<string>();
  const queue = {
    add: async (_name: string, job: NewJob<WebhookJobData>) => void (added.push(job), held.add(job.id)),
    addBulk: async (_name: string, jobs: NewJob<WebhookJobData>[]) => void jobs.forEach((job) => (added.push(job), held.add(job.id))),
    getJobState: async (_name: string, id: string) => (held.has(id) ? 'waiting' : undefined),
    remove: async () => true,
  } as unknown as JobQueue;
  const posts: { url: string; headers: Record<string, string>; body: string }[] = [];
  const sender: WebhookSender = {
    post: async (url, headers, body) => (posts.push({ url, headers, body }), answers.shift() ?? { statusCode: 200 }),
    checkTarget: async () => undefined,
  };
  const config = { webhookRetryDelaysMs: retryDelaysMs, webhookTimeoutMs: 1_000 } as AppConfig;
  const publisher = new PublishOutboundEvent(endpoints, deliveries, queue, clock);
  const deliver = new DeliverWebhook(deliveries, endpoints, sender, queue, clock, config);
  const recover = new RecoverWebhookDeliveries(deliveries, queue, clock);
  const endpoint: WebhookEndpoint = {
    id: 'ep1',
    ...scope,
    kind: 'endpoint',
    url: 'https://example.com/hook',
    disabled: false,
    secrets: [{ secret: 'whsec_c2VjcmV0' }],
    createdAt: now,
    updatedAt: now,
  };
  return {
    endpoints,
    deliveries,
    added,
    held,
    posts,
    publisher,
    deliver,
    recover,
    endpoint,
    tick: (ms: number) => (now = new Date(now.getTime() + ms)),
    /** Runs the last job added, as the queue would. */
    runLast: () => deliver.execute(added[added.length - 1].data),
  };
}

describe('PublishOutboundEvent and DeliverWebhook', () => {
  it('writes one row per endpoint that takes the event, once per key, and queues its first attempt', async () => {
    const s = setup([]);
    await s.endpoints.insert(s.endpoint);
    await s.endpoints.insert({ ...s.endpoint, id: 'ep2', eventTypes: ['workflow.created'] });
    await s.publisher.publish(scope, { type: 'message.sent', key: 'm1', object: { _id: 'm1' } });
    await s.publisher.publish(scope, { type: 'message.sent', key: 'm1', object: { _id: 'm1' } });
    expect(s.added).toHaveLength(1);
    const row = await s.deliveries.findById(s.added[0].data.deliveryId);
    expect(row).toMatchObject({ endpointId: 'ep1', status: 'pending', attempts: 0, eventType: 'message.sent' });
    expect(JSON.parse(row!.body)).toMatchObject({ type: 'message.sent', data: { object: { _id: 'm1' } } });
    expect(s.added[0]).toMatchObject({ id: `${row!.id}:1`, data: { deliveryId: row!.id, attempt: 1 } });
  });

  it('retries after the configured delays with the same webhook-id, then fails for good and disables the endpoint', async () => {
    const s = setup([{ statusCode: 500, body: 'no' }, { error: 'connect ECONNREFUSED' }, { statusCode: 502 }]);
    await s.endpoints.insert(s.endpoint);
    await s.publisher.publish(scope, { type: 'message.sent', key: 'm1', object: {} });
    await s.runLast();
    expect(s.added[1]).toMatchObject({ data: { attempt: 2 }, delayMs: 5_000 });
    await s.runLast();
    expect(s.added[2]).toMatchObject({ data: { attempt: 3 }, delayMs: 30_000 });
    await s.runLast();
    expect(s.added).toHaveLength(3);
    expect(new Set(s.posts.map((p) => p.headers['webhook-id'])).size).toBe(1);
    const row = await s.deliveries.findById(s.added[0].data.deliveryId);
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
    const endpoint = await s.endpoints.findById(scope, 'ep1');
    expect(endpoint).toMatchObject({ disabled: true, disabledReason: expect.stringContaining('sustained failure') });
    const log = await s.deliveries.listAttempts(scope, 'ep1', { page: 0, limit: 10 });
    expect(log.items.map((a) => [a.eventType, a.attempt, a.statusCode, a.error])).toEqual([
      ['endpoint.disabled', 3, undefined, expect.stringContaining('sustained failure')],
      ['message.sent', 3, 502, 'The endpoint answered 502'],
      ['message.sent', 2, undefined, 'connect ECONNREFUSED'],
      ['message.sent', 1, 500, 'The endpoint answered 500'],
    ]);
  });

  it('keeps an endpoint that succeeded meanwhile enabled; sends nothing to a disabled one', async () => {
    const s = setup([{ statusCode: 500 }, { statusCode: 200 }, { statusCode: 500 }], [1]);
    await s.endpoints.insert(s.endpoint);
    await s.publisher.publish(scope, { type: 'message.sent', key: 'a', object: {} });
    const first = s.added[0].data;
    await s.publisher.publish(scope, { type: 'message.sent', key: 'b', object: {} });
    const second = s.added[1].data;
    await s.deliver.execute(first); // 500
    await s.deliver.execute(second); // 200
    await s.runLast(); // the first's retry: 500, its last
    expect(await s.deliveries.findById(first.deliveryId)).toMatchObject({ status: 'failed' });
    expect(await s.endpoints.findById(scope, 'ep1')).toMatchObject({ disabled: false });

    await s.endpoints.update(scope, 'ep1', { disabled: true }, new Date());
    await s.deliveries.insertMany([{ ...(await s.deliveries.findById(first.deliveryId))!, id: 'msg_x', status: 'pending', attempts: 0 }]);
    const posts = s.posts.length;
    await s.deliver.execute({ deliveryId: 'msg_x', attempt: 1 });
    expect(s.posts).toHaveLength(posts);
    expect(await s.deliveries.findById('msg_x')).toMatchObject({ status: 'dropped' });
  });

  it('a redelivered job whose attempt was recorded only queues the next one; the sweep re-queues rows the queue lost', async () => {
    const s = setup([{ statusCode: 500 }]);
    await s.endpoints.insert(s.endpoint);
    await s.publisher.publish(scope, { type: 'message.sent', key: 'm', object: {} });
    const job = s.added[0].data;
    await s.deliver.execute(job);
    s.added.length = 0;
    s.held.clear(); // the queue lost everything
    await s.deliver.execute(job); // a stray redelivery of attempt 1
    expect(s.posts).toHaveLength(1);
    expect(s.added).toEqual([expect.objectContaining({ data: { deliveryId: job.deliveryId, attempt: 2 } })]);
    s.added.length = 0;
    s.held.clear();
    s.tick(5_000 + 61_000);
    expect(await s.recover.execute(100, 60_000)).toBe(1);
    expect(s.added).toEqual([expect.objectContaining({ id: `${job.deliveryId}:2` })]);
    expect(await s.recover.execute(100, 60_000)).toBe(0); // now held
  });
});
