import { RetryableJobError, systemClock } from '@app/kernel';
import { Subscriber } from '@app/subscribers';
import { HttpRequestMetadata, Workflow, WorkflowStep } from '@app/workflows';
import { Attempt } from '../../../domain/attempt';
import { DETAIL } from '../../../domain/execution-detail';
import { Job } from '../../../domain/job';
import { ProviderError } from '../../../ports/channel-provider.port';
import { HttpRequestSender, HttpStepRequest, HttpStepResponse } from '../../../ports/http-request-sender.port';
import { TemplateRenderer, TemplateVariables } from '../../../ports/template-renderer.port';
import { ChainSession } from '../chain-session';
import { StepRecorder } from '../channels/step-recorder';
import { StepContext } from '../step-context';
import { HTTP_STEP_TIMEOUT_MS, HttpRequestStep } from './http-request.step';
import { JsonSchemas } from '../../json-schemas';

const scope = { organizationId: 'org', environmentId: 'env' };
const ada = { id: 'sub-ada', ...scope, subscriberId: 'ada', firstName: 'Ada', channels: [] } as unknown as Subscriber;

/** `{{a.b}}` lookups: all these specs need of a template engine. */
const renderer = {
  render: (source: string, variables: TemplateVariables) =>
    source.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_, path: string) => {
      const value = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], variables);
      return value === undefined ? '' : String(value);
    }),
} as unknown as TemplateRenderer;

/** A sender that records each request and answers as scripted. */
function senderAnswering(...answers: (HttpStepResponse | ProviderError)[]) {
  const sent: HttpStepRequest[] = [];
  const sender: HttpRequestSender = {
    send: async (request) => {
      sent.push(request);
      const answer = answers[Math.min(sent.length, answers.length) - 1];
      if (answer instanceof ProviderError) throw answer;
      return answer;
    },
  };
  return { sender, sent };
}

const ok = (body: unknown, headers: Record<string, string> = {}): HttpStepResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json', ...headers },
  body,
});

function running(metadata: Partial<HttpRequestMetadata>, sender: HttpRequestSender, attempt = Attempt.first(6)) {
  const jobs = ['http_request', 'in_app'].map(
    (type, index) =>
      ({
        id: `job-${index + 1}`,
        ...scope,
        notificationId: 'n-1',
        transactionId: 'tx-1',
        subscriberId: ada.id,
        stepId: `step-${index + 1}`,
        parentId: index === 0 ? undefined : 'job-1',
        type,
        status: index === 0 ? 'running' : 'pending',
        payload: { orderId: 'o-7', token: 'payload-secret-token' },
        overrides: {},
        attempts: 0,
      }) as unknown as Job,
  );
  const step = {
    id: 'step-1',
    name: 'Fetch user',
    template: { id: 't-1', type: 'http_request' },
    metadata: { method: 'POST', url: 'https://api.example.com/users', headers: [], ...metadata },
  } as unknown as WorkflowStep;
  // a store that takes every flush (the step writes its run before calling out)
  const chain = ChainSession.ofStoredChain(jobs, jobs[0].id, systemClock, async (session) => {
    const write = session.pendingWrite();
    session.written(write, { written: true, moved: new Set(jobs.map((job) => job.id)), messages: new Map() });
    return true;
  });
  const context: StepContext = {
    scope,
    job: chain.jobs[0],
    workflow: { id: 'wf-1', revision: 1, steps: [step] } as unknown as Workflow,
    step,
    subscriber: ada,
    session: chain,
    attempt,
    now: new Date(),
    steps: { earlier: { plan: 'pro' } },
  };
  const handler = new HttpRequestStep(sender, renderer, new StepRecorder(systemClock), new JsonSchemas());
  const details = () => chain.held.details.map((detail) => ({ status: detail.status, detail: detail.detail, raw: detail.raw ? JSON.parse(detail.raw) : null }));
  return { handler, context, chain, details };
}

describe('HttpRequestStep', () => {
  it('renders the request from the payload, subscriber and earlier steps, sends it, and ends the job with the answer for the steps after it', async () => {
    const { sender, sent } = senderAnswering(ok({ name: 'Ada Lovelace', score: 12 }));
    const { handler, context, chain, details } = running(
      {
        url: 'https://api.example.com/users/{{subscriber.subscriberId}}?plan={{steps.earlier.plan}}',
        headers: [
          { key: 'Authorization', value: 'Bearer {{payload.token}}' },
          { key: 'X-Order', value: '{{payload.orderId}}' },
        ],
        body: '{"first": "{{subscriber.firstName}}", "order": "{{payload.orderId}}"}',
      },
      sender,
    );
    await expect(handler.run(context)).resolves.toEqual({ kind: 'ended' });
    expect(sent).toEqual([
      {
        method: 'POST',
        url: 'https://api.example.com/users/ada?plan=pro',
        headers: {
          Authorization: 'Bearer payload-secret-token',
          'X-Order': 'o-7',
          'content-type': 'application/json',
          'idempotency-key': 'job-1',
        },
        body: '{"first": "Ada", "order": "o-7"}',
        timeoutMs: HTTP_STEP_TIMEOUT_MS,
      },
    ]);
    expect(chain.jobs[0]).toMatchObject({ status: 'completed', output: { name: 'Ada Lovelace', score: 12 } });
    expect(details()).toEqual([
      {
        status: 'Success',
        detail: DETAIL.HTTP_REQUEST_SUCCEEDED,
        raw: {
          request: {
            method: 'POST',
            url: 'https://api.example.com/users/ada?plan=pro',
            headers: { Authorization: 'Bearer ****', 'X-Order': 'o-7', 'content-type': 'application/json', 'idempotency-key': 'job-1' },
            body: '{"first": "Ada", "order": "o-7"}',
          },
          response: { status: 200, headers: { 'content-type': 'application/json' }, body: { name: 'Ada Lovelace', score: 12 } },
        },
      },
    ]);
  });

  it('masks secrets wherever the step is shown: secret headers (with or without a scheme), URL credentials, and their values echoed back', async () => {
    const { sender } = senderAnswering(ok({ echoed: 'key=k3y-v4lue-123 and payload-secret-token' }, { 'set-cookie': 'session=abcdef' }));
    const { handler, context, details } = running(
      {
        url: 'https://user:pa55word@api.example.com/hook?api_key=k3y-v4lue-123&page=2',
        headers: [
          { key: 'X-Api-Key', value: '{{payload.token}}' },
          { key: 'Cookie', value: 'sid=1234567' },
          { key: 'Accept', value: 'application/json' },
        ],
      },
      sender,
    );
    await handler.run(context);
    const [success] = details();
    expect(success.raw.request).toMatchObject({
      url: 'https://user:****@api.example.com/hook?api_key=****&page=2',
      headers: { 'X-Api-Key': '****', Cookie: '****', Accept: 'application/json' },
    });
    expect(success.raw.response.headers['set-cookie']).toBe('****');
    expect(JSON.stringify(success.raw)).not.toMatch(/payload-secret-token|k3y-v4lue-123|pa55word|abcdef/);
  });

  it('sends secret environment variables as they are, and shows them masked wherever the step is shown, whatever their length', async () => {
    const { sender, sent } = senderAnswering(ok({ echoed: 'got s3cr3t-t0ken-value' }));
    const { handler, context, details } = running(
      {
        url: '{{env.BASE_URL}}/orders/{{env.PATH_KEY}}',
        headers: [{ key: 'X-Tenant', value: '{{env.API_TOKEN}}' }],
        body: '{"region": "{{env.REGION}}"}',
      },
      sender,
    );
    context.env = [
      { key: 'BASE_URL', value: 'https://api.example.com', isSecret: false },
      { key: 'PATH_KEY', value: 'k9', isSecret: true },
      { key: 'API_TOKEN', value: 's3cr3t-t0ken-value', isSecret: true },
      { key: 'REGION', value: 'eu', isSecret: false },
    ];
    await handler.run(context);
    expect(sent[0]).toMatchObject({
      url: 'https://api.example.com/orders/k9',
      headers: { 'X-Tenant': 's3cr3t-t0ken-value' },
      body: '{"region": "eu"}',
    });
    const [success] = details();
    expect(success.raw.request).toMatchObject({
      url: 'https://api.example.com/orders/••••••••',
      headers: { 'X-Tenant': '••••••••' },
      body: '{"region": "eu"}',
    });
    expect(JSON.stringify(success.raw)).not.toMatch(/s3cr3t-t0ken-value|orders\/k9/);
  });

  it('sends no body with GET, and key/value pairs as a JSON object', async () => {
    const get = senderAnswering(ok({}));
    const getting = running({ method: 'GET', body: '{"a": 1}' }, get.sender);
    await getting.handler.run(getting.context);
    expect(get.sent[0]).not.toHaveProperty('body');
    expect(get.sent[0].headers).not.toHaveProperty('content-type');

    const pairs = senderAnswering(ok({}));
    const { handler, context } = running(
      {
        body: [
          { key: 'order', value: '{{payload.orderId}}' },
          { key: '', value: 'left out' },
        ],
        headers: [{ key: 'Content-Type', value: 'application/vnd.api+json' }],
      },
      pairs.sender,
    );
    await handler.run(context);
    expect(pairs.sent[0].body).toBe('{"order":"o-7"}');
    expect(pairs.sent[0].headers).toEqual({ 'Content-Type': 'application/vnd.api+json', 'idempotency-key': 'job-1' });
  });

  it('a body that is not JSON once rendered fails the step without calling', async () => {
    const { sender, sent } = senderAnswering(ok({}));
    const { handler, context, chain, details } = running({ body: '{"order": {{payload.orderId}}}' }, sender);
    await expect(handler.run(context)).resolves.toEqual({ kind: 'failed', reason: 'The request body is not valid JSON once rendered' });
    expect(sent).toEqual([]);
    expect(chain.jobs[0].status).toBe('running'); // RunStep settles the failure
    expect(details()).toEqual([
      expect.objectContaining({
        status: 'Failed',
        detail: DETAIL.HTTP_REQUEST_FAILED,
        raw: expect.objectContaining({ request: expect.objectContaining({ body: '{"order": o-7}' }) }),
      }),
    ]);
  });

  it('a retryable failure goes back to the queue (with the endpoint’s Retry-After) while attempts remain, then fails the step', async () => {
    const unavailable = new ProviderError('rate_limited', 'HTTP request failed: the endpoint answered HTTP 429', {
      status: 429,
      retryAfterMs: 2_000,
      raw: { status: 429, body: 'slow down' },
    });
    const first = running({}, senderAnswering(unavailable).sender);
    const retry = first.handler.run(first.context);
    await expect(retry).rejects.toBeInstanceOf(RetryableJobError);
    await expect(retry).rejects.toMatchObject({ retryAfterMs: 2_000 });
    expect(first.details()).toEqual([
      {
        status: 'Warning',
        detail: DETAIL.HTTP_REQUEST_RETRY_SCHEDULED,
        raw: expect.objectContaining({
          error: expect.objectContaining({ kind: 'rate_limited', status: 429, attempt: 1 }),
          response: { status: 429, body: 'slow down' },
        }),
      },
    ]);

    const last = running({}, senderAnswering(unavailable).sender, Attempt.of(5, 6));
    await expect(last.handler.run(last.context)).resolves.toEqual({ kind: 'failed', reason: 'HTTP request failed: the endpoint answered HTTP 429' });
    expect(last.details()).toEqual([expect.objectContaining({ status: 'Failed', detail: DETAIL.HTTP_REQUEST_FAILED })]);
  });

  it('a permanent failure (a 4xx, a refused target) fails the step at once, secrets masked in its reason', async () => {
    const refused = new ProviderError(
      'invalid_request',
      'HTTP request failed: Target https://api.example.com/?token=tok-123456 is not allowed: private address',
    );
    const { handler, context, details } = running({ url: 'https://api.example.com/?token=tok-123456' }, senderAnswering(refused).sender);
    await expect(handler.run(context)).resolves.toEqual({
      kind: 'failed',
      reason: 'HTTP request failed: Target https://api.example.com/?token=**** is not allowed: private address',
    });
    expect(details()[0]).toMatchObject({ status: 'Failed', detail: DETAIL.HTTP_REQUEST_FAILED });
    expect(JSON.stringify(details())).not.toContain('tok-123456');
  });

  describe('the response body schema', () => {
    const responseBodySchema = { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } }, required: ['name'] };

    it('an answer that does not match fails the step when enforced, naming what is wrong', async () => {
      const { handler, context, chain, details } = running(
        { responseBodySchema, enforceSchemaValidation: true },
        senderAnswering(ok({ email: 'not-an-email' })).sender,
      );
      const outcome = await handler.run(context);
      expect(outcome).toMatchObject({ kind: 'failed' });
      expect(outcome.kind === 'failed' && outcome.reason).toMatch(
        /^HTTP response does not match the response body schema: .*name.*; \/email must match format "email"$/,
      );
      expect(chain.jobs[0].status).toBe('running');
      expect(details()).toEqual([
        expect.objectContaining({
          status: 'Failed',
          detail: DETAIL.HTTP_RESPONSE_SCHEMA_MISMATCH,
          raw: expect.objectContaining({ errors: expect.arrayContaining([{ path: '/email', message: 'must match format "email"' }]) }),
        }),
      ]);
    });

    it('an answer that matches, or a schema not enforced, lets the step complete', async () => {
      const matching = running({ responseBodySchema, enforceSchemaValidation: true }, senderAnswering(ok({ name: 'Ada', email: 'ada@example.com' })).sender);
      await expect(matching.handler.run(matching.context)).resolves.toEqual({ kind: 'ended' });
      const notEnforced = running({ responseBodySchema }, senderAnswering(ok({ email: 'nope' })).sender);
      await expect(notEnforced.handler.run(notEnforced.context)).resolves.toEqual({ kind: 'ended' });
    });

    it('a schema that is not valid JSON Schema fails the step', async () => {
      const { handler, context } = running({ responseBodySchema: { type: 'no-such-type' }, enforceSchemaValidation: true }, senderAnswering(ok({})).sender);
      const outcome = await handler.run(context);
      expect(outcome.kind === 'failed' && outcome.reason).toMatch(/not a valid JSON Schema/);
    });
  });

  it('an answer that is not a JSON object is kept as it is, with a warning that later steps cannot read fields of it', async () => {
    const { handler, context, chain, details } = running({}, senderAnswering({ status: 204, headers: {}, body: '' }).sender);
    await expect(handler.run(context)).resolves.toEqual({ kind: 'ended' });
    expect(chain.jobs[0]).toMatchObject({ status: 'completed', output: '' });
    expect(details().map((detail) => [detail.status, detail.detail])).toEqual([
      ['Warning', DETAIL.HTTP_RESPONSE_NOT_AN_OBJECT],
      ['Success', DETAIL.HTTP_REQUEST_SUCCEEDED],
    ]);
  });
});
