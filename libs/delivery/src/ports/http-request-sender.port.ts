/** One call of an HTTP request step, rendered. */
export interface HttpStepRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/** A 2xx answer. */
export interface HttpStepResponse {
  status: number;
  headers: Record<string, string>;
  /** The body parsed as JSON, or its text when it is not JSON. */
  body: unknown;
}

/**
 * Sends an HTTP request step's call through the outbound network guard. Answers a 2xx response;
 * throws a ProviderError otherwise, classified as for providers (retryable: no answer, 408, 425,
 * 429 with its Retry-After, 5xx; anything else, a refused target included, for good).
 */
export interface HttpRequestSender {
  send(request: HttpStepRequest): Promise<HttpStepResponse>;
}

export const HTTP_REQUEST_SENDER = Symbol('HttpRequestSender');
