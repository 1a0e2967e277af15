import { IncomingHttpHeaders } from 'node:http';
import { HttpRequestSender, HttpStepRequest, HttpStepResponse, ProviderError } from '@app/delivery';
import { classifyHttpFailure, classifyNetworkError } from '../network/failure-classification';
import { guardedRequest } from '../network/guarded-http';

/** The largest answer an HTTP request step takes: later steps read it, and it is kept on the job. */
export const HTTP_STEP_MAX_RESPONSE_BYTES = 256 * 1024;
const USER_AGENT = 'notify-service-http-step';

/**
 * HTTP request steps' calls through the SSRF guard (no loopback or private target unless
 * ALLOW_PRIVATE_NETWORK_TARGETS, cloud metadata never, 307/308 re-checked), with the step's timeout.
 * A 2xx answer comes back with its body parsed when it is JSON; anything else is a ProviderError,
 * classified as for providers. An answer longer than the limit fails for good: later steps would
 * read a part of it.
 */
export class GuardedHttpRequestSender implements HttpRequestSender {
  constructor(
    private readonly allowPrivate: boolean,
    private readonly maxResponseBytes = HTTP_STEP_MAX_RESPONSE_BYTES,
  ) {}

  async send(request: HttpStepRequest): Promise<HttpStepResponse> {
    let response;
    try {
      response = await guardedRequest({
        url: request.url,
        method: request.method,
        headers: { 'user-agent': USER_AGENT, ...request.headers },
        body: request.body,
        signal: AbortSignal.timeout(request.timeoutMs),
        allowPrivate: this.allowPrivate,
        maxResponseBytes: this.maxResponseBytes,
      });
    } catch (error) {
      throw failure(classifyNetworkError(error));
    }
    const { status } = response;
    if (status < 200 || status >= 300)
      throw failure(classifyHttpFailure(status, response.headers, response.body.slice(0, 2_000)), `the endpoint answered HTTP ${status}`);
    if (response.truncated) throw new ProviderError('permanent', `HTTP request failed: the answer is larger than ${this.maxResponseBytes} bytes`, { status });
    return { status, headers: flatHeaders(response.headers), body: parsedBody(response.body) };
  }
}

/** The classified error with a message that names the step's call rather than a provider. */
function failure(error: ProviderError, what = error.message.replace(/^Provider (\w)/, (_, first: string) => first.toLowerCase())): ProviderError {
  return new ProviderError(error.kind, `HTTP request failed: ${what}`, {
    status: error.status,
    retryAfterMs: error.retryAfterMs,
    raw: error.raw,
    cause: error,
  });
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

/** JSON when the text is JSON (whatever the content type says, as Novu reads it), else the text. */
function parsedBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
