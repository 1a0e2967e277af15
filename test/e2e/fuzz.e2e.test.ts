import { describeEachStore, startTestApp, TestApp } from '../support/test-app';

/**
 * Seeded random bodies on every write route: whatever arrives, the answer is a JSON 4xx (or a
 * success), never a 5xx. The seeds are fixed so a failure reproduces; the value pool holds the
 * shapes that broke things before (arrays for objects, NUL, huge numbers, prototype keys).
 */
const SEEDS = [42, 7, 2026];
const REQUESTS_PER_SEED = 250;

function random(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)];
  const atoms: unknown[] = [
    null,
    true,
    false,
    0,
    -1,
    1.5,
    1e308,
    '',
    ' ',
    'x',
    '💥',
    'a'.repeat(3000),
    'nul\u0000',
    '2026-13-45',
    '{{payload.x}}',
    '{% raw %}',
    [],
    {},
    [null],
    { $gt: '' },
    { constructor: { prototype: { polluted: 1 } } },
  ];
  const keys = [
    'a',
    'type',
    'value',
    'channel',
    'to',
    'subscriberId',
    'template',
    'steps',
    'metadata',
    'credentials',
    'email',
    'providerId',
    'identifier',
    'name',
    'data',
    'enabled',
  ];
  const value = (depth = 0): unknown => {
    if (depth > 3 || next() < 0.5) return pick(atoms);
    const size = Math.floor(next() * 3);
    return next() < 0.5
      ? Array.from({ length: size }, () => value(depth + 1))
      : Object.fromEntries(Array.from({ length: size }, () => [pick(keys), value(depth + 1)]));
  };
  return { next, pick, value };
}

const ROUTES: [method: 'post' | 'put' | 'patch', path: string, body: (r: ReturnType<typeof random>) => unknown][] = [
  [
    'post',
    '/v1/events/trigger',
    ({ pick, value }) => ({
      name: pick(['fz-wf', value()]),
      to: pick(['fz', [{ subscriberId: 'fz-2', email: value() }], { type: 'Topic', topicKey: value() }, value()]),
      payload: value(),
      overrides: value(),
      actor: value(),
      tenant: value(),
      transactionId: value(),
    }),
  ],
  [
    'post',
    '/v2/subscribers',
    ({ pick, value }) => ({
      subscriberId: pick(['fz-3', value()]),
      firstName: value(),
      email: value(),
      phone: value(),
      data: value(),
      timezone: value(),
      locale: value(),
    }),
  ],
  ['patch', '/v2/subscribers/fz', ({ value }) => ({ firstName: value(), email: value(), data: value(), timezone: value() })],
  ['patch', '/v2/subscribers/fz/preferences', ({ value }) => ({ channels: value(), workflowId: value(), schedule: value() })],
  [
    'put',
    '/v1/subscribers/fz/credentials',
    ({ pick, value }) => ({ providerId: pick(['slack', 'fcm', value()]), credentials: value(), integrationIdentifier: value() }),
  ],
  [
    'post',
    '/v1/workflows',
    ({ pick, value }) => ({
      name: pick(['wf', value()]),
      identifier: value(),
      steps: pick([
        [
          {
            template: { type: pick(['in_app', 'email', 'chat', 'push', 'digest', 'delay', value()]), content: value(), cta: value() },
            metadata: value(),
            filters: value(),
            active: value(),
          },
        ],
        value(),
      ]),
      preferenceSettings: value(),
      critical: value(),
      tags: value(),
    }),
  ],
  [
    'post',
    '/v1/integrations',
    ({ pick, value }) => ({
      providerId: pick(['sendgrid', 'slack', 'fcm', 'twilio', 'chat-webhook', value()]),
      channel: pick(['email', 'sms', 'chat', 'push', value()]),
      credentials: value(),
      active: value(),
      conditions: value(),
      identifier: value(),
      name: value(),
    }),
  ],
  ['post', '/v2/topics', ({ value }) => ({ key: value(), name: value() })],
  ['post', '/v2/topics/fz-topic/subscriptions', ({ value }) => ({ subscriberIds: value() })],
  ['post', '/v1/tenants', ({ value }) => ({ identifier: value(), name: value(), data: value() })],
  [
    'post',
    '/v1/events/trigger/bulk',
    ({ pick, value }) => ({
      events: pick([[{ name: pick(['fz-wf', value()]), to: pick(['fz', value()]), payload: value(), tenant: value() }, value()], value()]),
    }),
  ],
  ['post', '/v1/events/trigger/broadcast', ({ pick, value }) => ({ name: pick(['fz-wf', value()]), payload: value(), actor: value(), tenant: value() })],
  ['post', '/v1/topics', ({ value }) => ({ key: value(), name: value() })],
  ['post', '/v1/topics/fz-topic/subscribers', ({ value }) => ({ subscribers: value() })],
  ['post', '/v1/topics/fz-topic/subscribers/removal', ({ value }) => ({ subscribers: value() })],
  ['patch', '/v1/topics/fz-topic', ({ value }) => ({ name: value() })],
  ['post', '/v1/notification-templates', ({ pick, value }) => ({ name: pick(['nt', value()]), notificationGroupId: value(), steps: value(), tags: value() })],
  ['put', '/v1/notification-templates/fz-wf/status', ({ value }) => ({ active: value() })],
  ['post', '/v1/subscribers', ({ pick, value }) => ({ subscriberId: pick(['fz-4', value()]), firstName: value(), data: value(), channels: value() })],
  [
    'post',
    '/v1/subscribers/bulk',
    ({ pick, value }) => ({ subscribers: pick([[{ subscriberId: pick(['fz-5', value()]), email: value() }, value()], value()]) }),
  ],
  ['put', '/v1/subscribers/fz', ({ value }) => ({ lastName: value(), data: value() })],
  ['patch', '/v1/subscribers/fz/online-status', ({ value }) => ({ isOnline: value(), online: value() })],
  ['patch', '/v1/subscribers/fz/preferences', ({ value }) => ({ enabled: value(), preferences: value() })],
  ['patch', '/v1/subscribers/fz/preferences/fz-wf', ({ value }) => ({ enabled: value(), channel: value() })],
  ['post', '/v1/subscribers/fz/messages/mark-as', ({ value }) => ({ messageId: value(), markAs: value() })],
  ['post', '/v1/subscribers/fz/messages/markAs', ({ value }) => ({ messageId: value(), mark: value() })],
  ['post', '/v1/subscribers/fz/messages/mark-all', ({ value }) => ({ markAs: value(), feedIdentifier: value() })],
  ['post', '/v1/subscribers/fz/messages/x/actions/primary', ({ value }) => ({ status: value(), payload: value() })],
];

const SEGMENTS = ['', 'x', '-1', '1e9', '99999999999999999999', 'NaN', '[]', '%25', '..', '💥', 'a'.repeat(3000), '2026-13-45', '__proto__', 'constructor'];
const QUERY_KEYS = [
  'page',
  'pageSize',
  'key',
  'notificationId',
  'limit',
  'after',
  'before',
  'orderBy',
  'orderDirection',
  'email',
  'subscriberId',
  'channel',
  'transactionId',
  'transactionId[]',
  'transactionId[a]',
  'includeCursor',
  'criticality',
  'seen',
  'read',
  'payload',
  'feedIdentifier',
  'includeInactiveChannels',
  '__proto__[x]',
  'a[b][c][d][e][f]',
];
const READ_PATHS = [
  '/v1/subscribers',
  '/v1/subscribers/{}',
  '/v1/subscribers/{}/preferences',
  '/v1/subscribers/{}/preferences/{}',
  '/v1/subscribers/{}/notifications/feed',
  '/v1/subscribers/{}/notifications/unseen',
  '/v2/subscribers',
  '/v2/subscribers/{}',
  '/v2/subscribers/{}/preferences',
  '/v1/messages',
  '/v1/notifications',
  '/v1/notifications/{}',
  '/v1/integrations/active',
  '/v1/workflows',
  '/v1/workflows/{}',
  '/v2/topics',
  '/v2/topics/{}',
  '/v2/topics/{}/subscriptions',
  '/v1/tenants',
  '/v1/tenants/{}',
  '/v1/topics',
  '/v1/topics/{}',
  '/v1/topics/{}/subscribers/{}',
  '/v1/notification-templates',
  '/v1/notification-templates/{}',
  '/v1/notification-groups/{}',
  '/v1/execution-details',
  '/v1/integrations/webhook/provider/{}/status',
];
const DELETE_PATHS = [
  '/v1/subscribers/{}',
  '/v2/subscribers/{}',
  '/v2/topics/{}',
  '/v1/tenants/{}',
  '/v1/integrations/{}',
  '/v1/subscribers/{}/credentials/{}',
  '/v1/messages/transaction/{}',
  '/v1/events/trigger/{}',
  '/v1/topics/{}',
  '/v1/notification-templates/{}',
];

describeEachStore('fuzzed write routes (%s)', (store) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ store, worker: false });
    await t.api().post('/v2/subscribers').send({ subscriberId: 'fz' }).expect(201);
    await t.api().post('/v2/topics').send({ key: 'fz-topic', name: 'Fuzz' }).expect(201);
    await t
      .api()
      .post('/v1/workflows')
      .send({ name: 'fz-wf', identifier: 'fz-wf', active: true, steps: [{ template: { type: 'in_app', content: 'x' } }] })
      .expect(201);
  });
  afterAll(() => t.close());

  it.each(SEEDS)('never answers a 5xx (seed %i)', async (seed) => {
    const r = random(seed);
    const failures: string[] = [];
    for (let i = 0; i < REQUESTS_PER_SEED; i++) {
      const [method, path, body] = r.pick(ROUTES);
      const sent = body(r);
      const client = t.api();
      const res = await client[method](path).send(sent as object);
      if (res.status >= 500 || typeof res.body !== 'object')
        failures.push(`${res.status} ${method.toUpperCase()} ${path} ${JSON.stringify(sent).slice(0, 200)}`);
      else if (res.status >= 400) expect(res.body).toMatchObject({ statusCode: res.status, message: expect.anything() });
    }
    expect(failures).toEqual([]);
  });

  it('never answers a 5xx to odd paths and query strings on reads and deletes', async () => {
    const r = random(11);
    const failures: string[] = [];
    for (let i = 0; i < REQUESTS_PER_SEED; i++) {
      const remove = r.next() < 0.3;
      const path = r.pick(remove ? DELETE_PATHS : READ_PATHS).replace(/\{\}/g, () => encodeURIComponent(r.pick(SEGMENTS)));
      const query = Array.from({ length: Math.floor(r.next() * 4) }, () => `${r.pick(QUERY_KEYS)}=${encodeURIComponent(r.pick(SEGMENTS))}`).join('&');
      const url = query ? `${path}?${query}` : path;
      const res = await (remove ? t.api().delete(url) : t.api().get(url));
      if (res.status >= 500) failures.push(`${res.status} ${remove ? 'DELETE' : 'GET'} ${url.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });
});
