import { Inject, Injectable } from '@nestjs/common';
import { maskUrl } from '@app/integrations';
import { RetryableJobError } from '@app/kernel';
import { HttpRequestMetadata, secretHeaderValues, shownHeaders, stepMetadata } from '@app/workflows';
import { DETAIL } from '../../../domain/execution-detail';
import { redactSecrets } from '../../../domain/redact';
import { ProviderError, isProviderError } from '../../../ports/channel-provider.port';
import { HTTP_REQUEST_SENDER, HttpRequestSender, HttpStepRequest } from '../../../ports/http-request-sender.port';
import { TEMPLATE_RENDERER, TemplateRenderer } from '../../../ports/template-renderer.port';
import { StepRecorder } from '../channels/step-recorder';
import { StepContext } from '../step-context';
import { StepTemplates } from '../step-templates';
import { StepHandler } from '../step-handler';
import { StepOutcome } from '../step-outcome';
import { JsonSchemas } from '../../json-schemas';

/** How long the endpoint has to answer (Novu's default for the step). */
export const HTTP_STEP_TIMEOUT_MS = 5_000;
/** How much of a body an execution detail shows. */
const SHOWN_BODY_CHARS = 4_096;
/** Methods that send a body (as Novu: the others send none). */
const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/** The request as built, and how to show anything that may repeat its secrets. */
interface BuiltRequest {
  request: HttpStepRequest;
  /** The request as execution details show it: secret headers and URL credentials masked, the body cut. */
  shown: Record<string, unknown>;
  mask: <T>(value: T) => T;
  /** The body template did not render to JSON. */
  invalidBody?: boolean;
}

/**
 * An HTTP request step: renders its URL, headers and body with the step's variables (payload,
 * subscriber, earlier steps), calls the endpoint through the HttpRequestSender (the network guard,
 * HTTP_STEP_TIMEOUT_MS), and keeps the answer's body on the job for the steps after it
 * (`steps.<stepId>`). A retryable failure (no answer, 408, 425, 429, 5xx) goes back to the queue
 * while attempts remain; any other failure, or an answer that does not match `responseBodySchema`
 * when `enforceSchemaValidation`, fails the step (the chain stops unless `continueOnFailure`). It
 * calls outside, so its session is written before the call.
 */
@Injectable()
export class HttpRequestStep implements StepHandler {
  constructor(
    @Inject(HTTP_REQUEST_SENDER) private readonly sender: HttpRequestSender,
    @Inject(TEMPLATE_RENDERER) private readonly renderer: TemplateRenderer,
    private readonly recorder: StepRecorder,
    private readonly schemas: JsonSchemas,
  ) {}

  async run(context: StepContext): Promise<StepOutcome> {
    const { job, step, workflow } = context;
    const metadata = stepMetadata(step, 'http_request');
    if (!metadata) return this.failed(context, 'The step has no HTTP request to send', {});
    const { request, shown, mask, invalidBody } = this.build(metadata, context);
    if (invalidBody) return this.failed(context, 'The request body is not valid JSON once rendered', { request: shown });

    // The job's run is written (a compare-and-set) before the endpoint hears of it: one run calls out.
    if (!(await context.session.flush())) return { kind: 'waiting' };
    let response;
    try {
      response = await this.sender.send(request);
    } catch (thrown) {
      const error = isProviderError(thrown) ? thrown : new ProviderError('retryable', (thrown as Error).message, { cause: thrown });
      return this.callFailed(context, error, shown, mask);
    }
    const shownResponse = mask({ status: response.status, headers: shownHeaders(response.headers), body: excerpt(response.body) });

    if (metadata.enforceSchemaValidation && metadata.responseBodySchema) {
      const check = this.schemas.check(`${workflow.id}:${workflow.revision}:${step.id}`, metadata.responseBodySchema, response.body);
      if (!check.valid) {
        this.recorder.detail(context, 'Failed', DETAIL.HTTP_RESPONSE_SCHEMA_MISMATCH, {
          raw: { request: shown, response: shownResponse, errors: check.errors },
        });
        return {
          kind: 'failed',
          reason: `${DETAIL.HTTP_RESPONSE_SCHEMA_MISMATCH}: ${check.errors.map((error) => `${error.path || '(body)'} ${error.message}`).join('; ')}`,
        };
      }
    }
    if (!isPlainObject(response.body)) {
      this.recorder.detail(context, 'Warning', DETAIL.HTTP_RESPONSE_NOT_AN_OBJECT, {
        raw: { received: Array.isArray(response.body) ? 'array' : typeof response.body },
      });
    }
    this.recorder.detail(context, 'Success', DETAIL.HTTP_REQUEST_SUCCEEDED, { raw: { request: shown, response: shownResponse } });
    // The answer goes with the job's end: a step after it never runs without it.
    if (!context.session.transition(job.id, 'completed', { output: response.body })) return { kind: 'waiting' };
    return { kind: 'ended' };
  }

  private build(metadata: HttpRequestMetadata, context: StepContext): BuiltRequest {
    // The request goes out with secret environment variables as they are; what details show is
    // rendered with them masked, so none appears there whatever its length.
    const { url, headers, body } = renderRequest(metadata, StepTemplates.of(this.renderer, context, true), context.job.id);
    const secretValues = (context.env ?? []).filter((variable) => variable.isSecret).map((variable) => variable.value);
    const seen = secretValues.length ? renderRequest(metadata, StepTemplates.of(this.renderer, context), context.job.id) : { url, headers, body };

    const secrets = [...secretHeaderValues(headers), ...secretUrlValues(url), ...secretValues, ...secretValues.map(encodeURIComponent)];
    const mask = <T>(value: T): T => redactSecrets(value, secrets);
    const shown = mask({
      method: metadata.method,
      url: maskUrl(seen.url),
      headers: shownHeaders(seen.headers),
      ...(seen.body === undefined ? {} : { body: excerpt(seen.body.text) }),
    });
    return {
      request: { method: metadata.method, url, headers, ...(body?.json ? { body: body.text } : {}), timeoutMs: HTTP_STEP_TIMEOUT_MS },
      shown,
      mask,
      invalidBody: body !== undefined && !body.json,
    };
  }

  private async callFailed(context: StepContext, error: ProviderError, shown: Record<string, unknown>, mask: <T>(value: T) => T): Promise<StepOutcome> {
    const willRetry = error.retryable && !context.attempt.isLast;
    const reason = mask(error.message);
    const answer = error.raw as { body?: string } | undefined;
    this.recorder.detail(context, willRetry ? 'Warning' : 'Failed', willRetry ? DETAIL.HTTP_REQUEST_RETRY_SCHEDULED : DETAIL.HTTP_REQUEST_FAILED, {
      raw: mask({
        request: shown,
        error: { kind: error.kind, message: error.message, status: error.status, retryAfterMs: error.retryAfterMs, attempt: context.attempt.number },
        ...(answer?.body === undefined ? {} : { response: { status: error.status, body: excerpt(answer.body) } }),
      }),
    });
    if (willRetry) throw new RetryableJobError(reason, error.retryAfterMs);
    return { kind: 'failed', reason };
  }

  private async failed(context: StepContext, reason: string, raw: Record<string, unknown>): Promise<StepOutcome> {
    this.recorder.detail(context, 'Failed', DETAIL.HTTP_REQUEST_FAILED, { raw: { ...raw, error: reason }, source: 'Payload' });
    return { kind: 'failed', reason };
  }
}

/** URL, headers and body rendered, with the headers every request carries. */
function renderRequest(metadata: HttpRequestMetadata, templates: StepTemplates, jobId: string) {
  const render = (source: string) => templates.render(source) ?? '';
  const url = render(metadata.url).trim();
  const headers: Record<string, string> = {};
  for (const { key, value } of metadata.headers ?? []) {
    const name = render(key).trim();
    if (name) headers[name] = render(value);
  }
  const body = BODY_METHODS.has(metadata.method) ? renderedBody(metadata.body, render) : undefined;
  const named = (name: string) => Object.keys(headers).some((header) => header.toLowerCase() === name);
  if (body !== undefined && !named('content-type')) headers['content-type'] = 'application/json';
  // The same key on every attempt: an endpoint can tell a retry from a new call.
  if (!named('idempotency-key')) headers['idempotency-key'] = jobId;
  return { url, headers, body };
}

/** The body to send: a JSON template rendered (Novu requires JSON), or key/value pairs as an object; undefined when there is none. */
function renderedBody(body: HttpRequestMetadata['body'], render: (source: string) => string): { text: string; json: boolean } | undefined {
  if (Array.isArray(body)) {
    const pairs = body.map(({ key, value }) => [render(key).trim(), render(value)] as const).filter(([key]) => key);
    return pairs.length ? { text: JSON.stringify(Object.fromEntries(pairs)), json: true } : undefined;
  }
  const text = body ? render(body) : '';
  if (!text.trim()) return undefined;
  try {
    JSON.parse(text);
    return { text, json: true };
  } catch {
    return { text, json: false };
  }
}

/** A URL's credentials: its userinfo password and the values of secret-looking query parameters (those maskUrl masks). */
function secretUrlValues(url: string): string[] {
  const masked = maskUrl(url);
  if (masked === url) return [];
  try {
    const [plain, shown] = [new URL(url), new URL(masked)];
    const values = [...plain.searchParams].filter(([name]) => shown.searchParams.get(name) !== plain.searchParams.get(name)).map(([, value]) => value);
    return [plain.password, ...values, ...values.map(encodeURIComponent)].filter(Boolean);
  } catch {
    return [];
  }
}

/** A body as a detail shows it: as it is when short, else its first SHOWN_BODY_CHARS characters. */
function excerpt(body: unknown): unknown {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  if (text === undefined || text.length <= SHOWN_BODY_CHARS) return body;
  return `${text.slice(0, SHOWN_BODY_CHARS)}… (${text.length} characters)`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
