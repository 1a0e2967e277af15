import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { HttpStepRequest, ProviderError } from '@app/delivery';
import { LoopbackReceiver, closedPort } from '../testing/loopback-receiver';
import { GuardedHttpRequestSender } from './guarded-http-request.sender';

describe('GuardedHttpRequestSender', () => {
  let receiver: LoopbackReceiver;
  const sender = new GuardedHttpRequestSender(true, 1_024);
  const request = (path: string, extra: Partial<HttpStepRequest> = {}): HttpStepRequest => ({
    method: 'POST',
    url: receiver.url(path),
    headers: { 'content-type': 'application/json', authorization: 'Bearer t0ken' },
    body: '{"order":7}',
    timeoutMs: 2_000,
    ...extra,
  });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => Promise.reject(new Error('answered')),
      (error: ProviderError) => error,
    );

  beforeAll(async () => {
    receiver = await LoopbackReceiver.start();
    receiver.respond((req, res) => {
      const [, status, kind] = /^\/(\d{3})(?:\/(\w+))?/.exec(req.path) ?? [];
      if (kind === 'text') return res.writeHead(Number(status), { 'content-type': 'text/plain' }).end('plain words');
      if (kind === 'big') return res.writeHead(Number(status), { 'content-type': 'application/json' }).end(JSON.stringify({ filler: 'x'.repeat(5_000) }));
      const headers: Record<string, string | string[]> = { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] };
      if (status === '429') headers['retry-after'] = '3';
      res.writeHead(Number(status), headers).end(JSON.stringify({ status: Number(status), echo: req.rawBody ? JSON.parse(req.rawBody) : null }));
    });
  });
  afterAll(() => receiver.close());

  it('sends the method, headers and body as given, and answers a 2xx with its body parsed and its headers flat', async () => {
    const response = await sender.send(request('/201'));
    expect(response).toEqual({
      status: 201,
      headers: expect.objectContaining({ 'content-type': 'application/json', 'set-cookie': 'a=1, b=2' }),
      body: { status: 201, echo: { order: 7 } },
    });
    const received = receiver.requests.at(-1)!;
    expect(received).toMatchObject({ method: 'POST', rawBody: '{"order":7}' });
    expect(received.headers).toMatchObject({ authorization: 'Bearer t0ken', 'content-type': 'application/json', 'user-agent': 'notify-service-http-step' });

    const get = await sender.send(request('/200', { method: 'GET', body: undefined }));
    expect(get.body).toEqual({ status: 200, echo: null });
    expect(receiver.requests.at(-1)).toMatchObject({ method: 'GET', rawBody: '' });
  });

  it('answers a body that is not JSON as its text', async () => {
    await expect(sender.send(request('/200/text'))).resolves.toMatchObject({ body: 'plain words' });
  });

  it('classifies other answers: 5xx and 429 (with Retry-After) retryable, 4xx permanent, each with the answer excerpt', async () => {
    await expect(failure(sender.send(request('/503')))).resolves.toMatchObject({
      kind: 'retryable',
      status: 503,
      message: 'HTTP request failed: the endpoint answered HTTP 503',
      raw: { status: 503, body: expect.stringContaining('"status":503') },
    });
    await expect(failure(sender.send(request('/429')))).resolves.toMatchObject({ kind: 'rate_limited', retryable: true, retryAfterMs: 3_000 });
    const notFound = await failure(sender.send(request('/404')));
    expect(notFound).toMatchObject({ kind: 'invalid_request', retryable: false, message: 'HTTP request failed: the endpoint answered HTTP 404' });
  });

  it('fails for good on an answer larger than the limit: later steps would read a part of it', async () => {
    await expect(failure(sender.send(request('/200/big')))).resolves.toMatchObject({
      kind: 'permanent',
      message: 'HTTP request failed: the answer is larger than 1024 bytes',
    });
  });

  it('refuses a private target unless ALLOW_PRIVATE_NETWORK_TARGETS; the endpoint never hears of it', async () => {
    const before = receiver.requests.length;
    const refused = await failure(new GuardedHttpRequestSender(false).send(request('/200')));
    expect(refused).toMatchObject({ kind: 'invalid_request', retryable: false });
    expect(refused.message).toMatch(/^HTTP request failed: Target .* is not allowed/);
    expect(receiver.requests).toHaveLength(before);
  });

  it('no answer is retryable: a refused connection, or none within the timeout', async () => {
    const refused = await failure(sender.send({ ...request('/'), url: `http://127.0.0.1:${await closedPort()}/` }));
    expect(refused).toMatchObject({ kind: 'retryable', message: 'HTTP request failed: connection failed (ECONNREFUSED)' });

    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const timedOut = await failure(sender.send({ ...request('/'), url: `http://127.0.0.1:${port}/`, timeoutMs: 200 }));
      expect(timedOut).toMatchObject({ kind: 'retryable', message: 'HTTP request failed: request timed out or was aborted' });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
