import fc from 'fast-check';
import { Agent, RequestOptions, maxHeaderSize, request as httpRequest } from 'node:http';
import { AddressInfo, connect } from 'node:net';
import { SQL_CLIENT, SqlClient } from '@app/store-sql';
import { STORES, TestApp, startTestApp } from '../support/test-app';

/**
 * Property-based: generated hostile strings (lone surrogates, NUL, control characters, 10,000
 * characters, right-to-left marks, `..`, `%2F`, any Unicode) thrown into every route's body fields
 * and path parameters. Whatever arrives, the answer is a JSON 4xx or a success — never a 5xx — and
 * a refused request leaves no row behind. Seeded, so a failure reproduces.
 */
const HOSTILE = fc.oneof(
  fc.constantFrom(
    '\ud800',
    'a\udfffb',
    '\udc00\ud800',
    'x\u0000y',
    '\u0000',
    '\u202eevil\u202c',
    '..',
    '../..',
    '%2F',
    'a/b',
    '\u0001\u0007\u001b[31m',
    '💥'.repeat(50),
    ' ',
    '',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }), // any UTF-16 code units, lone surrogates included
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.integer({ min: 257, max: 12_000 }).map((length) => 'x'.repeat(length)),
);

type Body = (s: string) => Record<string, unknown>;
const BODY_ROUTES: [method: 'post' | 'put' | 'patch', path: string, body: Body][] = [
  ['post', '/v1/events/trigger', (s) => ({ name: 'hi-wf', to: s })],
  ['post', '/v1/events/trigger', (s) => ({ name: 'hi-wf', to: [{ subscriberId: s, email: 'a@example.com' }] })],
  ['post', '/v1/events/trigger', (s) => ({ name: 'hi-wf', to: { type: 'Topic', topicKey: s } })],
  ['post', '/v1/events/trigger', (s) => ({ name: 'hi-wf', to: 'hi', payload: { text: s, [s]: 1 } })],
  ['post', '/v1/events/trigger', (s) => ({ name: 'hi-wf', to: 'hi', transactionId: s })],
  ['post', '/v1/events/trigger', (s) => ({ name: 'hi-wf', to: 'hi', tenant: s, actor: s })],
  ['post', '/v1/events/trigger', (s) => ({ name: s, to: 'hi' })],
  ['post', '/v2/subscribers', (s) => ({ subscriberId: s })],
  ['post', '/v2/subscribers', (s) => ({ subscriberId: 'hi-2', firstName: s, data: { note: s } })],
  ['patch', '/v2/subscribers/hi', (s) => ({ lastName: s, data: { [s]: s } })],
  ['put', '/v1/subscribers/hi/credentials', (s) => ({ providerId: 'slack', credentials: { webhookUrl: s } })],
  ['post', '/v1/workflows', (s) => ({ name: s, steps: [{ template: { type: 'in_app', content: s } }] })],
  ['post', '/v1/workflows', (s) => ({ name: 'wf', identifier: s, steps: [] })],
  ['post', '/v1/integrations', (s) => ({ providerId: 'sendgrid', channel: 'email', identifier: s, credentials: { apiKey: s } })],
  ['post', '/v2/topics', (s) => ({ key: s, name: s })],
  ['post', '/v2/topics/hi-topic/subscriptions', (s) => ({ subscriberIds: [s] })],
  ['post', '/v1/tenants', (s) => ({ identifier: s, name: s, data: { s } })],
  ['post', '/v1/events/trigger/bulk', (s) => ({ events: [{ name: 'hi-wf', to: s }, { name: s, to: 'hi', transactionId: s }, s] })],
  ['post', '/v1/events/trigger/broadcast', (s) => ({ name: 'hi-wf', transactionId: s, tenant: s, payload: { [s]: s } })],
  ['post', '/v1/topics', (s) => ({ key: s, name: s })],
  ['post', '/v1/topics/hi-topic/subscribers', (s) => ({ subscribers: [s] })],
  ['post', '/v1/notification-templates', (s) => ({ name: s, notificationGroupId: s, steps: [{ template: { type: 'in_app', content: s } }] })],
  ['post', '/v1/subscribers', (s) => ({ subscriberId: s, firstName: s, data: { [s]: s } })],
  ['post', '/v1/subscribers/bulk', (s) => ({ subscribers: [{ subscriberId: s }, { subscriberId: 'hi-4', lastName: s }] })],
  ['put', '/v1/subscribers/hi', (s) => ({ lastName: s, data: { [s]: s } })],
  ['patch', '/v1/subscribers/hi/preferences/hi-wf', (s) => ({ channel: { type: s, enabled: false } })],
  ['patch', '/v1/subscribers/hi/preferences', (s) => ({ preferences: [{ type: s, enabled: false }] })],
  ['post', '/v1/subscribers/hi/messages/mark-as', (s) => ({ messageId: s, markAs: 'read' })],
  ['post', '/v1/subscribers/hi/messages/markAs', (s) => ({ messageId: [s], mark: { read: true } })],
];
const PATH_ROUTES: [method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, body?: Record<string, unknown>][] = [
  ['get', '/v2/subscribers/{}'],
  ['patch', '/v2/subscribers/{}', { firstName: 'x' }],
  ['delete', '/v2/subscribers/{}'],
  ['get', '/v2/subscribers/{}/preferences'],
  ['patch', '/v2/topics/{}', { name: 'x' }],
  ['get', '/v2/topics/{}'],
  ['post', '/v2/topics/{}/subscriptions', { subscriberIds: ['hi'] }],
  ['get', '/v1/tenants/{}'],
  ['delete', '/v1/tenants/{}'],
  ['get', '/v1/workflows/{}'],
  ['delete', '/v1/integrations/{}'],
  ['delete', '/v1/events/trigger/{}'],
  ['delete', '/v1/messages/transaction/{}'],
  ['get', '/v1/notifications/{}'],
  ['get', '/v1/topics/{}'],
  ['patch', '/v1/topics/{}', { name: 'x' }],
  ['delete', '/v1/topics/{}'],
  ['post', '/v1/topics/{}/subscribers', { subscribers: ['hi'] }],
  ['get', '/v1/topics/hi-topic/subscribers/{}'],
  ['post', '/v1/topics/{}/subscribers/removal', { subscribers: ['hi'] }],
  ['post', '/v1/integrations/{}/set-primary'],
  ['get', '/v1/integrations/webhook/provider/{}/status'],
  ['put', '/v1/notification-templates/{}/status', { active: true }],
  ['get', '/v1/notification-groups/{}'],
  ['get', '/v1/subscribers/{}'],
  ['put', '/v1/subscribers/{}', { firstName: 'x' }],
  ['delete', '/v1/subscribers/{}'],
  ['patch', '/v1/subscribers/{}/online-status', { isOnline: true }],
  ['get', '/v1/subscribers/{}/preferences'],
  ['get', '/v1/subscribers/hi/preferences/{}'],
  ['patch', '/v1/subscribers/hi/preferences/{}', { enabled: false }],
  ['get', '/v1/subscribers/{}/notifications/feed'],
  ['get', '/v1/subscribers/{}/notifications/unseen'],
  ['post', '/v1/subscribers/{}/messages/mark-all', { markAs: 'read' }],
  ['post', '/v1/subscribers/hi/messages/{}/actions/primary', { status: 'done' }],
];
const TABLES = ['subscribers', 'topics', 'topic_subscriptions', 'tenants', 'workflows', 'integrations', 'triggers'];

/** A path segment for a generated string: percent-encoded, or raw bytes for what UTF-8 cannot carry. */
function segment(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80'; // a lone surrogate as CESU-8: invalid UTF-8 on the wire
  }
}

describe.each(STORES)('hostile input on every route (%s)', (store) => {
  let t: TestApp;
  let sql: SqlClient;
  beforeAll(async () => {
    t = await startTestApp({ store, worker: false });
    sql = t.app.get(SQL_CLIENT);
    await t.api().post('/v2/subscribers').send({ subscriberId: 'hi' }).expect(201);
    await t.api().post('/v2/topics').send({ key: 'hi-topic', name: 'Hostile' }).expect(201);
    await t
      .api()
      .post('/v1/workflows')
      .send({ name: 'hi-wf', identifier: 'hi-wf', active: true, steps: [{ template: { type: 'in_app', content: 'x' } }] })
      .expect(201);
    await t.api().post('/v1/integrations').send({ providerId: 'slack', channel: 'chat', active: true }).expect(201);
  });
  afterAll(() => t.close());

  const rows = async () =>
    Object.fromEntries(await Promise.all(TABLES.map(async (table) => [table, Number((await sql.query(`SELECT count(*) AS n FROM ${table}`))[0].n)])));

  it('body fields: never a 5xx, and a refused request writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...BODY_ROUTES), HOSTILE, async ([method, path, body], s) => {
        const before = await rows();
        const client = t.api();
        const res = await client[method](path)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body(s)));
        expect({ status: res.status < 500 ? 'not 5xx' : res.status, json: typeof res.body }).toEqual({ status: 'not 5xx', json: 'object' });
        if (res.status >= 400) {
          expect(res.body).toMatchObject({ statusCode: res.status, message: expect.anything() });
          expect(await rows()).toEqual(before);
        }
      }),
      { seed: 20261123, numRuns: 300 },
    );
  });

  it('path parameters: never a 5xx, and a refused request writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PATH_ROUTES), HOSTILE, async ([method, path, body], s) => {
        const before = await rows();
        const request = t.api()[method](path.replace('{}', segment(s) || '%20'));
        const res = await (body ? request.send(body) : request);
        expect({ status: res.status < 500 ? 'not 5xx' : res.status }).toEqual({ status: 'not 5xx' });
        if (res.status >= 400) expect(await rows()).toEqual(before);
      }),
      { seed: 20261124, numRuns: 300 },
    );
  });

  it('names the field that holds an unstorable string, and the limit an identifier passed', async () => {
    const surrogate = await t
      .api()
      .post('/v1/events/trigger')
      .set('Content-Type', 'application/json')
      .send('{"name":"hi-wf","to":"hi","payload":{"a":{"b":"\\ud800"}}}')
      .expect(422);
    expect(surrogate.body).toMatchObject({
      code: 'invalid_string',
      errors: { 'payload.a.b': { messages: ['payload.a.b must be well-formed Unicode (a lone UTF-16 surrogate cannot be stored)'] } },
    });
    const nul = await t.api().post('/v1/tenants').set('Content-Type', 'application/json').send('{"identifier":"t","data":{"x":"a\\u0000"}}').expect(422);
    expect(nul.body.errors).toHaveProperty(['data.x']);
    const long = await t
      .api()
      .post('/v1/events/trigger')
      .send({ name: 'hi-wf', to: 'x'.repeat(10_000) })
      .expect(422);
    expect(long.body.errors.to.messages).toEqual(['a subscriberId must be at most 256 characters (got 10000)']);
    const topic = await t
      .api()
      .post(`/v2/topics/${'k'.repeat(10_000)}/subscriptions`)
      .send({ subscriberIds: ['hi'] })
      .expect(422);
    expect(topic.body.errors.topicKey.messages).toEqual(['topicKey must be at most 256 characters (got 10000)']);
  });
});

/**
 * A request Node's parser refuses ends its connection, and the answer says so (`Connection: close`, a JSON body in the
 * service's error shape): a keep-alive client then opens a new socket for its next request instead of writing it on the
 * closing one ("socket hang up"). Each case is followed by a valid request on the same agent, as a client sends it.
 */
describe('the connection after a refused request', () => {
  let t: TestApp;
  let port: number;
  let agent: Agent;
  beforeAll(async () => {
    t = await startTestApp({ worker: false, env: { BODY_LIMIT_BYTES: '1024' } });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
  });
  afterAll(async () => {
    agent.destroy();
    await t.close();
  });

  /** One request through the shared keep-alive agent; `chunks` are written one by one (chunked encoding). */
  function send(options: RequestOptions, chunks: string[] = []): Promise<{ status?: number; connection?: string; body: any }> {
    return new Promise((resolve, reject) => {
      const sent = httpRequest({ host: '127.0.0.1', port, agent, ...options }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, connection: res.headers.connection, body: JSON.parse(text) }));
      });
      sent.on('error', reject);
      for (const chunk of chunks) sent.write(chunk);
      sent.end();
    });
  }
  const nextRequestSucceeds = async () => expect((await send({ path: '/v1/health-check' })).status).toBe(200);
  const json = () => ({ Authorization: `ApiKey ${t.apiKey}`, 'Content-Type': 'application/json' });

  beforeEach(() => nextRequestSucceeds()); // the agent holds a kept-alive socket

  it('431 for headers over the limit', async () => {
    const res = await send({ path: '/v1/health-check', headers: { 'x-padding': 'a'.repeat(maxHeaderSize * 2) } });
    expect(res).toMatchObject({ status: 431, connection: 'close' });
    expect(res.body).toEqual({
      statusCode: 431,
      timestamp: expect.any(String),
      // read from the bytes Node kept of the request, which hold its request line unless it arrived in several reads
      ...('path' in res.body ? { path: '/v1/health-check' } : {}),
      message: `The request line and headers exceed the limit of ${maxHeaderSize} bytes`,
      error: 'Request Header Fields Too Large',
    });
    await nextRequestSucceeds();
  });

  it('400 for a malformed request line, from the agent and from a raw socket', async () => {
    const res = await send({ path: '/v1/health-check\u007f' }); // DEL: Node's client sends it, its parser refuses it
    expect(res).toMatchObject({ status: 400, connection: 'close', body: { statusCode: 400, error: 'Bad Request', message: expect.any(String) } });
    await nextRequestSucceeds();

    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /v1/health-check HTTP/1.1 extra\r\nHost: x\r\n\r\n'));
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('close', () => resolve(text)); // the server ends the connection
      socket.on('error', reject);
    });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head.split('\r\n')).toEqual(
      expect.arrayContaining(['HTTP/1.1 400 Bad Request', 'Connection: close', 'Content-Type: application/json; charset=utf-8']),
    );
    expect(JSON.parse(body)).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      message: expect.stringMatching(/^The request is not valid HTTP\/1\.1: /),
    });
    await nextRequestSucceeds();
  });

  it('413 for a body over BODY_LIMIT_BYTES: refused by its Content-Length the connection stays usable; refused as it streams it closes', async () => {
    const body = JSON.stringify({ identifier: 'big', name: 'x'.repeat(5000) });
    const declared = await send({ path: '/v1/tenants', method: 'POST', headers: { ...json(), 'Content-Length': Buffer.byteLength(body) } }, [body]);
    expect(declared).toMatchObject({ status: 413, connection: 'keep-alive', body: { statusCode: 413, code: 'body_too_large' } });
    await nextRequestSucceeds();

    const streamed = await send({ path: '/v1/tenants', method: 'POST', headers: json() }, ['{"identifier":"big","name":"', 'x'.repeat(3000), '"}']);
    expect(streamed).toMatchObject({ status: 413, connection: 'close', body: { statusCode: 413 } });
    await nextRequestSucceeds();
  });
});
