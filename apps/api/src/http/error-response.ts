import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import { DomainError, ErrorKind, ServiceUnavailableError, StoreRejectedError } from '@app/kernel';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';

export interface ErrorResponse {
  statusCode: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  not_found: 404,
  conflict: 409,
  invalid: 400,
  unprocessable: 422,
  too_large: 413,
  unsupported_media_type: 415,
  unauthorized: 401,
  forbidden: 403,
  rate_limited: 429,
  unavailable: 503,
};

const logger = new Logger('Errors');

/** While a dependency is away every request fails the same way: one line a minute says so. */
let quietUntil = 0;
function logUnavailable(error: ServiceUnavailableError): void {
  if (Date.now() < quietUntil) return;
  quietUntil = Date.now() + 60_000;
  logger.warn(`Answering 503 ${error.code}: ${error.detail ?? error.message}`);
}

/**
 * An error already turned into its wire response (by the idempotency interceptor, which stores it):
 * rendering it again would give a new timestamp, and for a 500 a second log line with another errorId.
 */
export class RenderedError extends Error {
  constructor(readonly response: ErrorResponse) {
    super(String(response.body.message));
  }
}

/** One mapping from anything thrown to the wire error shape: `{statusCode, timestamp, path, message, error?}`. */
export function toErrorResponse(error: unknown, path: string): ErrorResponse {
  if (error instanceof RenderedError) return error.response;
  const base = (statusCode: number, message: unknown, extra: Record<string, unknown> = {}) => ({
    statusCode,
    body: {
      statusCode,
      timestamp: new Date().toISOString(),
      path,
      message,
      ...(statusCode < 500 ? { error: STATUS_CODES[statusCode] } : {}),
      ...extra,
    },
  });
  if (error instanceof ServiceUnavailableError) {
    logUnavailable(error);
    return { ...base(HttpStatus.SERVICE_UNAVAILABLE, error.message, { code: error.code }), headers: { 'Retry-After': String(error.retryAfterSeconds) } };
  }
  if (error instanceof DomainError) {
    const status = STATUS_BY_KIND[error.kind];
    return base(status, error.message, { ...(error.details ?? {}), code: error.code });
  }
  // Data validation let through but the store cannot hold: the request's fault, never a 500.
  if (error instanceof StoreRejectedError) {
    return base(HttpStatus.UNPROCESSABLE_ENTITY, 'The request holds a value the store cannot keep', { code: 'unstorable_value' });
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const response = error.getResponse();
    if (typeof response === 'string') return base(status, response);
    const { statusCode: _s, error: _e, message, ...rest } = response as Record<string, unknown>;
    const headers = (error as HttpException & { headers?: Record<string, string> }).headers;
    return { ...base(status, message ?? error.message, rest), headers };
  }
  // Errors of the platform and libraries carry an HTTP status of their own (Fastify's: a chunked body over
  // the parser's limit, a malformed Content-Length).
  const status = (error as { status?: number })?.status ?? (error as { statusCode?: number })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return base(status, (error as Error).message);
  const errorId = randomUUID();
  logger.error({ errorId, path, err: error }, `Unhandled error ${errorId} on ${path}: ${(error as Error)?.message}`);
  return base(HttpStatus.INTERNAL_SERVER_ERROR, 'Internal server error, contact support and provide them with the errorId', { errorId });
}
