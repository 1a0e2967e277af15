import { SendContext } from '@app/delivery';
import { ChatWebhookFake } from '../../../../../test/fakes/chat/chat-webhook.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { createProviderRuntime } from '../../provider-runtime';
import { closedPort, LoopbackReceiver } from '../../testing/loopback-receiver';
import { verifyWebhookSignature } from '../../webhooks/webhook-signature';
import { ChatWebhookProvider } from './chat-webhook.provider';

const SECRET = 'integration-secret';

function context(idempotencyKey = 'msg-1', timeoutMs = 5_000): SendContext {
  return sendContext(idempotencyKey, { signal: AbortSignal.timeout(timeoutMs) });
}

describe('ChatWebhookProvider (against a real loopback receiver)', () => {
  let receiver: LoopbackReceiver;
  const provider = new ChatWebhookProvider(createProviderRuntime({ allowPrivateNetworkTargets: true }));

  beforeEach(async () => {
    receiver = await LoopbackReceiver.start();
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('POSTs the message as JSON, signed and with our message id as Idempotency-Key', async () => {
    receiver.respond((req, res) => {
      const valid = verifyWebhookSignature(req.rawBody, SECRET, req.headers['x-novu-signature'] as string);
      res.writeHead(valid ? 200 : 401, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'remote-42' }));
    });
    const result = await provider.send(
      { id: 'm', content: 'Hello Ada', webhookUrl: receiver.url('/chat'), channel: 'general', customData: { extra: true } },
      { secretKey: SECRET },
      context('msg-123'),
    );
    expect(result.id).toBe('remote-42');
    expect(new Date(result.date).toString()).not.toBe('Invalid Date');
    const [request] = receiver.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/chat');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['idempotency-key']).toBe('msg-123');
    expect(JSON.parse(request.rawBody)).toEqual({ extra: true, content: 'Hello Ada', webhookUrl: receiver.url('/chat'), channel: 'general' });
  });

  it('sends no signature without a secret, and accepts a non-JSON 2xx', async () => {
    receiver.respond((_req, res) => res.writeHead(204).end());
    const result = await provider.send({ id: 'm', content: 'hi', webhookUrl: receiver.url() }, {}, context());
    expect(result.id).toBeUndefined();
    expect(receiver.requests[0].headers['x-novu-signature']).toBeUndefined();
  });

  it('500 is retryable', async () => {
    receiver.respond((_req, res) => res.writeHead(500).end('boom'));
    const error = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: receiver.url() }, { secretKey: SECRET }, context()));
    expect(error).toMatchObject({ kind: 'retryable', status: 500, retryable: true });
  });

  it('429 with Retry-After is rate limited with retryAfterMs', async () => {
    receiver.respond((_req, res) => res.writeHead(429, { 'retry-after': '30' }).end());
    const error = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: receiver.url() }, { secretKey: SECRET }, context()));
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 30_000, retryable: true });
  });

  it('400 is permanent', async () => {
    receiver.respond((_req, res) => res.writeHead(400).end('{"error":"bad"}'));
    const error = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: receiver.url() }, { secretKey: SECRET }, context()));
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, retryable: false });
    expect(error.raw).toEqual({ status: 400, body: '{"error":"bad"}' });
  });

  it('connection refused is retryable', async () => {
    const port = await closedPort();
    const error = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: `http://127.0.0.1:${port}/x` }, {}, context()));
    expect(error).toMatchObject({ kind: 'retryable', message: 'Provider connection failed (ECONNREFUSED)' });
  });

  it('a receiver that never answers times out as retryable', async () => {
    receiver.respond(() => undefined); // hold the request open
    const error = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: receiver.url() }, {}, context('m', 300)));
    expect(error).toMatchObject({ kind: 'retryable', message: 'Provider request timed out or was aborted' });
  });

  it("the provider's own timeout applies even when the caller gives none", async () => {
    receiver.respond(() => undefined);
    const quick = new ChatWebhookProvider(createProviderRuntime({ allowPrivateNetworkTargets: true, timeoutMs: 200 }));
    const error = await providerFailure(
      quick.send({ id: 'm', content: 'hi', webhookUrl: receiver.url() }, {}, { idempotencyKey: 'm', signal: new AbortController().signal }),
    );
    expect(error.kind).toBe('retryable');
  });

  it('refuses a private target when private networks are not allowed, before sending anything', async () => {
    const strict = new ChatWebhookProvider(createProviderRuntime({ allowPrivateNetworkTargets: false }));
    const error = await providerFailure(strict.send({ id: 'm', content: 'hi', webhookUrl: receiver.url() }, { secretKey: SECRET }, context()));
    expect(error.kind).toBe('invalid_request');
    expect(error.message).toContain('non-public address 127.0.0.1');
    expect(receiver.requests).toHaveLength(0);
  });

  it('follows a 307 only after checking the new target again', async () => {
    const other = await LoopbackReceiver.start();
    try {
      receiver.respond((_req, res) => res.writeHead(307, { location: other.url('/moved') }).end());
      other.respond((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"moved"}'));
      const result = await provider.send({ id: 'm', content: 'hi', webhookUrl: receiver.url() }, { secretKey: SECRET }, context('msg-r'));
      expect(result.id).toBe('moved');
      expect(other.requests[0].headers['idempotency-key']).toBe('msg-r');
      expect(verifyWebhookSignature(other.requests[0].rawBody, SECRET, other.requests[0].headers['x-novu-signature'] as string)).toBe(true);

      // a redirect to cloud metadata (refused even with private targets allowed) or to a non-http scheme
      receiver.respond((_req, res) => res.writeHead(308, { location: 'http://169.254.169.254/latest/meta-data' }).end());
      const toMetadata = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: receiver.url() }, {}, context()));
      expect(toMetadata.kind).toBe('invalid_request');
      expect(toMetadata.message).toContain('cloud metadata address');
      receiver.respond((_req, res) => res.writeHead(307, { location: 'file:///etc/passwd' }).end());
      const toFile = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: receiver.url() }, {}, context()));
      expect(toFile.kind).toBe('invalid_request');
      expect(toFile.message).toContain('scheme file is not allowed');
    } finally {
      await other.close();
    }
  });

  it('does not follow other redirects', async () => {
    receiver.respond((_req, res) => res.writeHead(302, { location: 'http://example.com/' }).end());
    const error = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: receiver.url() }, {}, context()));
    expect(error).toMatchObject({ kind: 'permanent', status: 302 });
  });

  it('a missing webhook URL is an invalid recipient', async () => {
    const error = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: '' }, {}, context()));
    expect(error.kind).toBe('invalid_recipient');
  });
});

describe('ChatWebhookProvider against the receiver fake (the one end-to-end tests reuse)', () => {
  const fake = new ChatWebhookFake(SECRET);
  const provider = new ChatWebhookProvider(testRuntime());

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('the fake verifies the signature, and answers a redelivery with the first id without counting it twice', async () => {
    const first = await provider.send({ id: 'm', content: 'Hello', webhookUrl: fake.webhookUrl }, { secretKey: SECRET }, sendContext('msg-7'));
    const again = await provider.send({ id: 'm', content: 'Hello', webhookUrl: fake.webhookUrl }, { secretKey: SECRET }, sendContext('msg-7'));
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(again.id).toBe(first.id);
  });

  it('a wrong secret is refused by the fake', async () => {
    const error = await providerFailure(provider.send({ id: 'm', content: 'Hello', webhookUrl: fake.webhookUrl }, { secretKey: 'other' }, sendContext()));
    expect(error).toMatchObject({ kind: 'auth', status: 401 });
    expect(fake.refusals.map((r) => r.reason)).toEqual(['bad or missing X-Novu-Signature']);
  });
});
