import { lookup } from 'node:dns/promises';
import request from 'supertest';
import { CreateApiKey, CreateEnvironment, DEVELOPMENT_ENVIRONMENT, ENVIRONMENT_REPOSITORY, EnvironmentRepository } from '@app/environments';
import { newId } from '@app/kernel';
import { ApiClient, TestApp, startTestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/**
 * The issue this answers: Swagger UI's "Try it out" must succeed with the request body it shows, unchanged. Every
 * POST/PUT/PATCH operation with a JSON body is sent the body Swagger UI builds from the document (each named example of
 * its dropdown) on an environment of its own, after the resources its path (and any record its body names) needs are
 * made; anything but a 2xx fails. A new operation needs a fixture here, so a DTO without valid examples cannot slip in.
 */

// Swagger UI's own bundle, the one /api serves: its resolver (swagger-client: $ref and allOf) and its sampler
// build the request body "Try it out" shows, so this test sends exactly what a user would.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SwaggerUIBundle: SwaggerUi = require('swagger-ui-dist/swagger-ui-bundle.js');

interface SwaggerUi {
  System: new (options: object) => { register(plugins: unknown[]): void; getSystem(): { fn: SwaggerUiFunctions } };
  plugins: Record<'SwaggerClient' | 'JSONSchema5Samples', unknown>;
}
interface SwaggerUiFunctions {
  resolveSubtree(spec: object, path: string[], options: object): Promise<{ spec: any; errors: unknown[] }>;
  getSampleSchema(schema: object, contentType: string, config: object, exampleOverride: unknown): string;
}

interface Example {
  method: 'post' | 'put' | 'patch';
  path: string;
  /** The named example of the operation's dropdown, when it has several. */
  name?: string;
  body: Record<string, unknown>;
}

/**
 * Each operation's request body as Swagger UI fills it in: each named `examples` entry (the dropdown), else `example`,
 * else sampled from the schema (property examples, enums, defaults, then type placeholders).
 */
async function swaggerUiExamples(doc: any): Promise<Example[]> {
  const store = new SwaggerUIBundle.System({});
  store.register([SwaggerUIBundle.plugins.SwaggerClient, SwaggerUIBundle.plugins.JSONSchema5Samples]);
  const { fn } = store.getSystem();
  const examples: Example[] = [];
  // One resolve of every path: the shared component schemas are resolved once, not once per operation.
  const { spec: paths, errors } = await fn.resolveSubtree(doc, ['paths'], {});
  expect(errors).toEqual([]);
  for (const [path, operations] of Object.entries<any>(doc.paths)) {
    for (const method of ['post', 'put', 'patch'] as const) {
      if (!operations[method]?.requestBody?.content?.['application/json']) continue;
      const media = paths[path][method].requestBody.content['application/json'];
      const sample = (override: unknown) => JSON.parse(fn.getSampleSchema(media.schema, 'application/json', { includeWriteOnly: true }, override));
      if (media.examples) {
        for (const [name, example] of Object.entries<any>(media.examples)) examples.push({ method, path, name, body: sample(example.value) });
      } else {
        examples.push({ method, path, body: sample(media.example) });
      }
    }
  }
  return examples;
}

/** What an operation needs before its example can succeed, in a new environment: the path parameters (and headers) to send. */
interface Prepared {
  params?: Record<string, string>;
  /**
   * Fields of the example that only the caller's own data can make valid (the id the service gave a message, the environment's
   * public identifier), filled in as a user fills a path parameter. Only fields the example has; every other field goes as shown.
   */
  fill?: Record<string, unknown>;
  /** The Inbox's routes authenticate with a subscriber token instead of the API key. */
  headers?: Record<string, string>;
}
type Fixture = (env: Env, body: any) => Promise<Prepared>;
interface Env {
  api: ApiClient;
  server: Parameters<typeof request>[0];
}

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

async function subscriber(env: Env, subscriberId: string): Promise<void> {
  await env.api.post('/v2/subscribers').send({ subscriberId }).expect(201);
}

/** An active workflow with one in-app step; `cta` gives its messages a primary button. */
async function workflow(env: Env, identifier: string, options: { active?: boolean; cta?: boolean } = {}): Promise<string> {
  const cta = options.cta ? { cta: { type: 'redirect', action: { buttons: [{ type: 'primary', content: 'Accept' }] } } } : {};
  const res = await env.api
    .post('/v1/workflows')
    .send({ name: identifier, identifier, active: options.active ?? true, steps: [{ template: { type: 'in_app', content: 'Hello', ...cta } }] })
    .expect(201);
  return res.body.data._id;
}

/** A workflow written through v2 (Liquid) with an in-app step `in-app`; its workflowId. */
async function v2Workflow(env: Env): Promise<string> {
  const steps = [{ name: 'In-app', type: 'in_app', controlValues: { subject: 'Order shipped', body: 'Order {{ payload.orderId }} is on its way' } }];
  await env.api.post('/v2/workflows').send({ name: 'Order shipped', workflowId: 'order-shipped', steps }).expect(201);
  return 'order-shipped';
}

/** An email layout, `brand` (the layoutId the layout examples name); its layoutId. */
async function layout(env: Env): Promise<string> {
  await env.api.post('/v2/layouts').send({ layoutId: 'brand', name: 'Brand' }).expect(201);
  return 'brand';
}
const onLayout: Fixture = async (env) => ({ params: { layoutId: await layout(env) } });

/** The workflows and layouts a translation example names, by the identifier it gives them. */
async function translated(env: Env, resources: { workflows?: string[]; layouts?: string[] }): Promise<void> {
  for (const identifier of resources.workflows ?? []) await workflow(env, identifier);
  for (const layoutId of resources.layouts ?? []) await env.api.post('/v2/layouts').send({ layoutId, name: layoutId }).expect(201);
}

/** An in-app message delivered to the subscriber (created by the trigger); its id. */
async function inAppMessage(env: Env, subscriberId: string): Promise<string> {
  const identifier = uniqueName('wf').toLowerCase();
  await workflow(env, identifier, { cta: true });
  await env.api.post('/v1/events/trigger').send({ name: identifier, to: subscriberId }).expect(201);
  return waitFor(async () => (await env.api.get(`/v1/messages?subscriberId=${subscriberId}&channel=in_app`).expect(200)).body.data[0]?._id);
}

/** A subscriber session of the Inbox: the header its routes authenticate with. */
async function inboxSession(env: Env, subscriberId: string): Promise<Record<string, string>> {
  const res = await request(env.server)
    .post('/v1/inbox/session')
    .send({ applicationIdentifier: await applicationIdentifier(env), subscriber: { subscriberId } })
    .expect(201);
  return { Authorization: `Bearer ${res.body.data.token}` };
}

async function inboxNotification(env: Env, subscriberId: string): Promise<{ headers: Record<string, string>; id: string }> {
  const headers = await inboxSession(env, subscriberId);
  await inAppMessage(env, subscriberId);
  const res = await request(env.server).get('/v1/inbox/notifications').set(headers).expect(200);
  return { headers, id: res.body.data[0].id };
}

/** An example's environment variable values, each for the caller's own environment. */
async function ownValues(env: Env, values: { value: string }[]): Promise<{ _environmentId: string; value: string }[]> {
  const environmentId = await developmentId(env);
  return values.map(({ value }) => ({ _environmentId: environmentId, value }));
}

async function topic(env: Env, key: string): Promise<void> {
  await env.api.post('/v2/topics').send({ key, name: key }).expect(201);
}

async function integration(env: Env, body: Record<string, unknown>): Promise<string> {
  return (await env.api.post('/v1/integrations').send(body).expect(201)).body.data._id;
}

/** The integrations a fallback list names (email ones, as the example's own channel). */
async function fallbacks(env: Env, identifiers: string[] = []): Promise<void> {
  for (const identifier of identifiers) await integration(env, { providerId: 'ses', channel: 'email', identifier });
}

/** The active chat integrations that channel credentials name (credentials need one of their provider). */
async function chatIntegrations(env: Env, entries: { providerId: string; integrationIdentifier?: string }[] = []): Promise<void> {
  for (const entry of entries) await integration(env, { providerId: entry.providerId, channel: 'chat', identifier: entry.integrationIdentifier, active: true });
}

/**
 * The machines these tests run on may have no DNS: a URL whose host does not resolve here is sent with 127.0.0.1 (loopback is an
 * allowed target in tests) and the rest as shown. Where the host resolves, the URL is sent as shown.
 */
async function resolvableHere(url: string): Promise<string> {
  const parsed = new URL(url);
  try {
    await lookup(parsed.hostname);
    return url;
  } catch {
    parsed.hostname = '127.0.0.1';
    return parsed.toString();
  }
}

async function applicationIdentifier(env: Env): Promise<string> {
  return (await env.api.get('/v1/environments/me').expect(200)).body.data.identifier;
}

async function webhookEndpoint(env: Env): Promise<string> {
  return (await env.api.post('/v2/outbound-webhooks/endpoints').send({ url: 'http://127.0.0.1:9/hooks' }).expect(201)).body.data._id;
}

/** The key's environment (Development): the example's parent or source. */
async function developmentId(env: Env): Promise<string> {
  return (await env.api.get('/v1/environments/me').expect(200)).body.data._id;
}

async function newEnvironment(env: Env, name: string): Promise<string> {
  return (await env.api.post('/v1/environments').send({ name, color: '#4caf50' }).expect(201)).body.data._id;
}

const SUBSCRIBER = 'user-123';

const onSubscriber: Fixture = async (env) => {
  await subscriber(env, SUBSCRIBER);
  return { params: { subscriberId: SUBSCRIBER } };
};
const TOPIC = 'product-updates';
/** A topic, with the subscribers the example names (v2's `subscriberIds`, v1's `subscribers`) created. */
const onTopic: Fixture = async (env, body) => {
  await topic(env, TOPIC);
  for (const subscriberId of body.subscriberIds ?? body.subscribers ?? []) await subscriber(env, subscriberId);
  return { params: { topicKey: TOPIC } };
};
const onInboxSession: Fixture = async (env) => ({ headers: await inboxSession(env, SUBSCRIBER) });
const onInboxNotification: Fixture = async (env) => {
  const { headers, id } = await inboxNotification(env, SUBSCRIBER);
  return { headers, params: { id } };
};

/** Per operation, what its example needs to exist first, made from the example itself where it names it. */
const FIXTURES: Record<string, Fixture> = {
  'POST /v1/integrations': async (env, body) => (await fallbacks(env, body.fallbacks), {}),
  'PUT /v1/integrations/{integrationId}': async (env, body) => {
    await fallbacks(env, body.fallbacks);
    return { params: { integrationId: await integration(env, { providerId: 'sendgrid', channel: 'email' }) } };
  },
  'POST /v2/subscribers': async () => ({}),
  'PATCH /v2/subscribers/{subscriberId}': onSubscriber,
  'PUT /v1/subscribers/{subscriberId}/credentials': async (env, body) => {
    await subscriber(env, SUBSCRIBER);
    await chatIntegrations(env, [body]);
    return { params: { subscriberId: SUBSCRIBER } };
  },
  'PATCH /v1/subscribers/{subscriberId}/credentials': async (env, body) => {
    await subscriber(env, SUBSCRIBER);
    await chatIntegrations(env, [body]);
    return { params: { subscriberId: SUBSCRIBER } };
  },
  'PATCH /v2/subscribers/{subscriberId}/preferences': async (env, body) => {
    await subscriber(env, SUBSCRIBER);
    if (body.workflowId) await workflow(env, body.workflowId);
    return { params: { subscriberId: SUBSCRIBER } };
  },
  'PATCH /v2/subscribers/{subscriberId}/preferences/bulk': async (env, body) => {
    await subscriber(env, SUBSCRIBER);
    for (const preference of body.preferences) await workflow(env, preference.workflowId);
    return { params: { subscriberId: SUBSCRIBER } };
  },
  'POST /v1/subscribers': async (env, body) => (await chatIntegrations(env, body.channels), {}),
  'POST /v1/subscribers/bulk': async (env, body) => (
    await chatIntegrations(
      env,
      body.subscribers.flatMap((entry: any) => entry.channels ?? []),
    ),
    {}
  ),
  'PUT /v1/subscribers/{subscriberId}': onSubscriber,
  'PATCH /v1/subscribers/{subscriberId}/online-status': onSubscriber,
  'PATCH /v1/subscribers/{subscriberId}/preferences': onSubscriber,
  'PATCH /v1/subscribers/{subscriberId}/preferences/{parameter}': async (env) => {
    await subscriber(env, SUBSCRIBER);
    return { params: { subscriberId: SUBSCRIBER, parameter: await workflow(env, 'welcome') } };
  },
  'POST /v1/subscribers/{subscriberId}/messages/mark-as': async (env) => {
    await subscriber(env, SUBSCRIBER);
    return { params: { subscriberId: SUBSCRIBER }, fill: { messageId: await inAppMessage(env, SUBSCRIBER) } };
  },
  'POST /v1/subscribers/{subscriberId}/messages/markAs': async (env) => {
    await subscriber(env, SUBSCRIBER);
    return { params: { subscriberId: SUBSCRIBER }, fill: { messageId: await inAppMessage(env, SUBSCRIBER) } };
  },
  'POST /v1/subscribers/{subscriberId}/messages/mark-all': onSubscriber,
  'POST /v1/subscribers/{subscriberId}/messages/{messageId}/actions/{type}': async (env) => {
    await subscriber(env, SUBSCRIBER);
    return { params: { subscriberId: SUBSCRIBER, messageId: await inAppMessage(env, SUBSCRIBER), type: 'primary' } };
  },
  'POST /v2/subscribers/{subscriberId}/notifications/read': onSubscriber,
  'POST /v2/subscribers/{subscriberId}/notifications/archive': onSubscriber,
  'POST /v2/subscribers/{subscriberId}/notifications/read-archive': onSubscriber,
  'POST /v2/subscribers/{subscriberId}/notifications/delete': onSubscriber,
  'POST /v2/subscribers/{subscriberId}/notifications/seen': onSubscriber,
  'PATCH /v2/subscribers/{subscriberId}/notifications/{notificationId}/snooze': async (env) => {
    await subscriber(env, SUBSCRIBER);
    return { params: { subscriberId: SUBSCRIBER, notificationId: await inAppMessage(env, SUBSCRIBER) } };
  },
  'POST /v2/topics': async () => ({}),
  'PATCH /v2/topics/{topicKey}': onTopic,
  'POST /v2/topics/{topicKey}/subscriptions': onTopic,
  'PATCH /v2/topics/{topicKey}/subscriptions/{identifier}': async (env) => {
    const { params } = await onTopic(env, { subscriberIds: [SUBSCRIBER] });
    await env.api
      .post(`/v2/topics/${TOPIC}/subscriptions`)
      .send({ subscriberIds: [SUBSCRIBER] })
      .expect(201);
    return { params: { ...params, identifier: `tk_${TOPIC}:si_${SUBSCRIBER}` } };
  },
  'POST /v1/topics': async () => ({}),
  'PATCH /v1/topics/{topicKey}': onTopic,
  'POST /v1/topics/{topicKey}/subscribers': onTopic,
  'POST /v1/topics/{topicKey}/subscribers/removal': async (env, body) => {
    const prepared = await onTopic(env, body);
    await env.api.post(`/v1/topics/${TOPIC}/subscribers`).send({ subscribers: body.subscribers }).expect(200);
    return prepared;
  },
  'POST /v1/tenants': async () => ({}),
  'PATCH /v1/tenants/{identifier}': async (env) => {
    await env.api.post('/v1/tenants').send({ identifier: 'acme', name: 'Acme' }).expect(201);
    return { params: { identifier: 'acme' } };
  },
  'POST /v1/workflows': async () => ({}),
  'PUT /v1/workflows/{workflowId}': async (env) => ({ params: { workflowId: await workflow(env, 'first-workflow') } }),
  'PUT /v1/workflows/{workflowId}/status': async (env) => ({ params: { workflowId: await workflow(env, 'first-workflow', { active: false }) } }),
  'POST /v1/notification-templates': async () => ({}),
  'PUT /v1/notification-templates/{workflowId}': async (env) => ({ params: { workflowId: await workflow(env, 'first-workflow') } }),
  'PUT /v1/notification-templates/{workflowId}/status': async (env) => ({
    params: { workflowId: await workflow(env, 'first-workflow', { active: false }) },
  }),
  'POST /v1/events/trigger': async (env, body) => (await workflow(env, body.name), {}),
  'POST /v1/events/trigger/bulk': async (env, body) => {
    for (const name of new Set<string>(body.events.map((event: { name: string }) => event.name))) await workflow(env, name);
    return {};
  },
  'POST /v1/events/trigger/broadcast': async (env, body) => (await workflow(env, body.name), {}),
  'POST /v1/messages/mark-as': async (env, body) => {
    await subscriber(env, body.subscriberId);
    return { fill: { messageId: await inAppMessage(env, body.subscriberId) } };
  },
  'POST /v2/outbound-webhooks/endpoints': async (_env, body) => ({ fill: { url: await resolvableHere(body.url) } }),
  'PATCH /v2/outbound-webhooks/endpoints/{id}': async (env, body) => ({
    params: { id: await webhookEndpoint(env) },
    fill: { url: await resolvableHere(body.url) },
  }),
  'POST /v2/outbound-webhooks/endpoints/{id}/test': async (env) => ({ params: { id: await webhookEndpoint(env) } }),
  'POST /v1/environments': async (env) => ({ fill: { parentId: await developmentId(env) } }),
  'PUT /v1/environments/{environmentId}': async (env) => ({
    params: { environmentId: await newEnvironment(env, 'Staging') },
    fill: { parentId: await developmentId(env) },
  }),
  'POST /v2/environments/{targetEnvironmentId}/diff': async (env) => ({
    params: { targetEnvironmentId: await newEnvironment(env, 'Production') },
    fill: { sourceEnvironmentId: await developmentId(env) },
  }),
  'POST /v2/environments/{targetEnvironmentId}/publish': async (env, body) => {
    for (const resource of body.resources ?? []) await workflow(env, resource.resourceId);
    return { params: { targetEnvironmentId: await newEnvironment(env, 'Production') }, fill: { sourceEnvironmentId: await developmentId(env) } };
  },
  'POST /v2/workflows': async () => ({}),
  // An API key sets its own environment's value of a variable: the example's environment id is the caller's.
  'POST /v1/environment-variables': async (env, body) => ({ fill: { values: await ownValues(env, body.values) } }),
  'PATCH /v1/environment-variables/{variableKey}': async (env, body) => {
    await env.api.post('/v1/environment-variables').send({ key: 'SUPPORT_URL' }).expect(200);
    return { params: { variableKey: 'SUPPORT_URL' }, fill: { values: await ownValues(env, body.values) } };
  },
  'POST /v2/contexts': async () => ({}),
  'PATCH /v2/contexts/{type}/{id}': async (env) => {
    await env.api.post('/v2/contexts').send({ type: 'tenant', id: 'acme' }).expect(201);
    return { params: { type: 'tenant', id: 'acme' } };
  },
  'POST /v2/translations': async (env, body) => (
    await translated(env, body.resourceType === 'layout' ? { layouts: [body.resourceId] } : { workflows: [body.resourceId] }),
    {}
  ),
  'POST /v2/translations/master-json': async (env, body) => (
    await translated(env, { workflows: Object.keys(body.masterJson.workflows ?? {}), layouts: Object.keys(body.masterJson.layouts ?? {}) }),
    {}
  ),
  'PATCH /v1/organizations/settings': async () => ({}),
  'POST /v2/layouts': async () => ({}),
  'PUT /v2/layouts/{layoutId}': onLayout,
  'POST /v2/layouts/{layoutId}/duplicate': onLayout,
  'POST /v2/layouts/{layoutId}/preview': onLayout,
  'PUT /v2/workflows/{workflowId}': async (env) => ({ params: { workflowId: await v2Workflow(env) } }),
  'PATCH /v2/workflows/{workflowId}': async (env) => ({ params: { workflowId: await v2Workflow(env) } }),
  'POST /v2/workflows/{workflowId}/step/{stepId}/preview': async (env) => ({ params: { workflowId: await v2Workflow(env), stepId: 'in-app' } }),
  'PUT /v2/workflows/{workflowId}/sync': async (env) => ({
    params: { workflowId: await workflow(env, 'welcome') },
    fill: { targetEnvironmentId: await newEnvironment(env, 'Production') },
  }),
  // Each environment has its own public identifier (GET /v1/environments/me), as each has its own API key.
  'POST /v1/inbox/session': async (env) => ({ fill: { applicationIdentifier: await applicationIdentifier(env) } }),
  'PATCH /v1/inbox/notifications/{id}/snooze': onInboxNotification,
  'PATCH /v1/inbox/notifications/{id}/complete': onInboxNotification,
  'PATCH /v1/inbox/notifications/{id}/revert': onInboxNotification,
  'POST /v1/inbox/notifications/read': onInboxSession,
  'POST /v1/inbox/notifications/archive': onInboxSession,
  'POST /v1/inbox/notifications/read-archive': onInboxSession,
  'POST /v1/inbox/notifications/delete': onInboxSession,
  'POST /v1/inbox/notifications/seen': onInboxSession,
  'PATCH /v1/inbox/preferences': onInboxSession,
  'PATCH /v1/inbox/preferences/bulk': async (env, body) => {
    for (const preference of body.preferences) await workflow(env, preference.workflowId);
    return { headers: await inboxSession(env, SUBSCRIBER) };
  },
  'PATCH /v1/inbox/preferences/{workflowId}': async (env) => ({
    headers: await inboxSession(env, SUBSCRIBER),
    params: { workflowId: await workflow(env, 'welcome') },
  }),
};

/** A new organization with its Development environment and a key, as the first start makes them: each operation starts from one. */
async function freshDevelopmentEnvironment(t: TestApp): Promise<string> {
  const organization = { id: newId(), name: uniqueName('organization'), createdAt: new Date() };
  await t.app.get<EnvironmentRepository>(ENVIRONMENT_REPOSITORY).insertOrganization(organization);
  const environment = await t.app.get(CreateEnvironment).execute({ organizationId: organization.id, name: DEVELOPMENT_ENVIRONMENT });
  return (await t.app.get(CreateApiKey).execute({ environmentId: environment.id })).secret;
}

/** Operations no static example can make succeed, with the reason. */
const CANNOT_SUCCEED: Record<string, string> = {
  'POST /v2/inbound-webhooks/delivery-providers/{environmentId}/{integrationId}':
    "a vendor's signed event: the signature covers the body and a per-integration key",
};

describe('Swagger UI examples', () => {
  let t: TestApp;
  let examples: Example[];
  beforeAll(async () => {
    t = await startTestApp();
    const doc = (await request(t.app.getHttpServer()).get('/api-json').expect(200)).body;
    examples = await swaggerUiExamples(doc);
  });
  afterAll(() => t.close());

  it('builds the examples with the Swagger UI that /api serves', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const served = require('@nestjs/swagger/package.json').dependencies['swagger-ui-dist'];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    expect(require('swagger-ui-dist/package.json').version).toBe(served);
  });

  it('every operation with a JSON body has a fixture here, or is listed as unable to succeed', () => {
    const operations = new Set(examples.map((example) => key(example.method, example.path)));
    expect([...operations].filter((operation) => !FIXTURES[operation] && !CANNOT_SUCCEED[operation])).toEqual([]);
    expect(Object.keys({ ...FIXTURES, ...CANNOT_SUCCEED }).filter((operation) => !operations.has(operation))).toEqual([]);
  });

  it('each request example succeeds as shown, each on a new Development environment', async () => {
    const failures: string[] = [];
    for (const example of examples) {
      const operation = key(example.method, example.path);
      if (CANNOT_SUCCEED[operation] || !FIXTURES[operation]) continue;
      const apiKey = await freshDevelopmentEnvironment(t);
      const env: Env = { api: t.api(apiKey), server: t.app.getHttpServer() };
      const prepared = await FIXTURES[operation](env, example.body);
      expect(Object.keys(prepared.fill ?? {}).filter((field) => !(field in example.body))).toEqual([]);
      const path = example.path.replace(/\{(\w+)\}/g, (_, param: string) => encodeURIComponent(prepared.params?.[param] ?? `{${param}}`));
      const body = { ...example.body, ...prepared.fill };
      const sent = request(env.server)[example.method](path);
      const res = await sent.set(prepared.headers ?? { Authorization: `ApiKey ${apiKey}` }).send(body);
      if (res.status < 200 || res.status >= 300) {
        failures.push(
          `${operation}${example.name ? ` (${example.name})` : ''} answered ${res.status}: ${JSON.stringify(res.body)}; sent ${JSON.stringify(body)}`,
        );
      }
    }
    expect(failures).toEqual([]);
  });
});
