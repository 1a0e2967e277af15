import { PushMessage, SendContext } from '@app/delivery';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { PushWebhookFake } from '../../../../../test/fakes/push/push-webhook.fake';
import { createProviderRuntime } from '../../provider-runtime';
import { closedPort, LoopbackReceiver } from '../../testing/loopback-receiver';
import { signWebhookBody, verifyWebhookSignature } from '../../webhooks/webhook-signature';
import { PushWebhookProvider } from './push-webhook.provider';

const SECRET = 'push-secret';
const message: PushMessage = {
  id: 'msg-1',
  target: 'device-token-1',
  title: 'New comment',
  content: 'Ada replied',
  payload: { postId: 'p1' },
  subscriber: { subscriberId: 'sub-1' },
  step: { digest: false, events: [], total_count: 0 },
};

function context(idempotencyKey = 'msg-1', timeoutMs = 5_000): SendContext {
  return sendContext(idempotencyKey, { signal: AbortSignal.timeout(timeoutMs), overrides: { sound: 'ping' } });
}

describe('PushWebhookProvider (against a real loopback receiver)', () => {
  let receiver: LoopbackReceiver;
  const provider = new PushWebhookProvider(createProviderRuntime({ allowPrivateNetworkTargets: true }));

  beforeEach(async () => {
    receiver = await LoopbackReceiver.start();
  });
  afterEach(async () => {
    await receiver.close();
  });

  it("POSTs Novu's push body to the integration URL; the receiver verifies the HMAC", async () => {
    receiver.respond((req, res) => {
      const valid = verifyWebhookSignature(req.rawBody, SECRET, req.headers['x-novu-signature'] as string);
      res.writeHead(valid ? 200 : 401, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'push-7' }));
    });
    const result = await provider.send(message, { webhookUrl: receiver.url('/push'), secretKey: SECRET }, context('msg-9'));
    expect(result.id).toBe('push-7');
    const [request] = receiver.requests;
    expect(request.headers['x-novu-signature']).toBe(signWebhookBody(request.rawBody, SECRET));
    expect(request.headers['idempotency-key']).toBe('msg-9');
    expect(JSON.parse(request.rawBody)).toEqual({
      target: ['device-token-1'],
      title: 'New comment',
      content: 'Ada replied',
      overrides: { sound: 'ping' },
      payload: { postId: 'p1', subscriber: { subscriberId: 'sub-1' }, step: { digest: false, events: [], total_count: 0 } },
    });
  });

  it('a wrong secret is caught by the receiver (401 → auth)', async () => {
    receiver.respond((req, res) => {
      const valid = verifyWebhookSignature(req.rawBody, SECRET, req.headers['x-novu-signature'] as string);
      res.writeHead(valid ? 200 : 401).end();
    });
    const error = await providerFailure(provider.send(message, { webhookUrl: receiver.url(), secretKey: 'wrong' }, context()));
    expect(error).toMatchObject({ kind: 'auth', status: 401, retryable: false });
  });

  it('needs webhookUrl and secretKey', async () => {
    expect((await providerFailure(provider.send(message, { secretKey: SECRET }, context()))).kind).toBe('invalid_request');
    expect((await providerFailure(provider.send(message, { webhookUrl: receiver.url() }, context()))).kind).toBe('invalid_request');
    expect(receiver.requests).toHaveLength(0);
  });

  it('classifies failures: 500 retryable, 429 rate limited, 400 permanent', async () => {
    const config = { webhookUrl: receiver.url(), secretKey: SECRET };
    receiver.respond((_req, res) => res.writeHead(503).end());
    expect(await providerFailure(provider.send(message, config, context()))).toMatchObject({ kind: 'retryable', status: 503 });
    receiver.respond((_req, res) => res.writeHead(429, { 'retry-after': new Date(Date.now() + 60_000).toUTCString() }).end());
    const limited = await providerFailure(provider.send(message, config, context()));
    expect(limited.kind).toBe('rate_limited');
    expect(limited.retryAfterMs).toBeGreaterThan(50_000);
    receiver.respond((_req, res) => res.writeHead(400).end());
    expect(await providerFailure(provider.send(message, config, context()))).toMatchObject({ kind: 'invalid_request', retryable: false });
  });

  it('connection refused and timeouts are retryable', async () => {
    const port = await closedPort();
    expect((await providerFailure(provider.send(message, { webhookUrl: `http://127.0.0.1:${port}/`, secretKey: SECRET }, context()))).kind).toBe('retryable');
    receiver.respond(() => undefined);
    expect((await providerFailure(provider.send(message, { webhookUrl: receiver.url(), secretKey: SECRET }, context('m', 300)))).kind).toBe('retryable');
  });

  it('refuses a private target unless allowed', async () => {
    const strict = new PushWebhookProvider(createProviderRuntime({ allowPrivateNetworkTargets: false }));
    const error = await providerFailure(strict.send(message, { webhookUrl: receiver.url(), secretKey: SECRET }, context()));
    expect(error.kind).toBe('invalid_request');
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('PushWebhookProvider against the push webhook fake (used by end-to-end tests)', () => {
  const fake = new PushWebhookFake();
  const provider = new PushWebhookProvider(testRuntime());

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('the fake accepts the signed body and its answer id becomes the result id; a wrong secret is refused', async () => {
    const result = await provider.send(message, { webhookUrl: fake.webhookUrl, secretKey: fake.secretKey }, context());
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
    const error = await providerFailure(provider.send(message, { webhookUrl: fake.webhookUrl, secretKey: 'wrong' }, context()));
    expect(error.kind).toBe('auth');
    expect(fake.refusals.map((r) => r.reason)).toEqual(['bad X-Novu-Signature']);
  });
});
