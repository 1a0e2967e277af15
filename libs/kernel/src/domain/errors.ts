// Domain errors carry a stable string `code` and a `kind`; the HTTP layer maps kinds to statuses,
// so no use case knows about HTTP.
export type ErrorKind =
  | 'not_found'
  | 'conflict'
  | 'invalid' // 400: the request is understood but not allowed
  | 'unprocessable' // 422: the body fails validation
  | 'too_large'
  | 'unsupported_media_type' // 415: a body that is not JSON
  | 'unauthorized'
  | 'forbidden' // 403: the caller may not do this with its credentials
  | 'rate_limited' // 429
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly kind: ErrorKind,
    /** Extra fields placed on the error body (e.g. `workflowId`, `errors`). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class NotFoundError extends DomainError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(code, message, 'not_found', details);
  }
}

export class ConflictError extends DomainError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(code, message, 'conflict', details);
  }
}

export class InvalidRequestError extends DomainError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(code, message, 'invalid', details);
  }
}

export class UnprocessableError extends DomainError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(code, message, 'unprocessable', details);
  }
}

/**
 * The store refused the data itself (a value or row it cannot hold, a constraint it breaks): the
 * same write will fail again, so retrying it is pointless. Store adapters throw it; a transient
 * failure (connection lost, timeout) is any other error.
 */
export class StoreRejectedError extends Error {
  constructor(
    message: string,
    /** The store's own code (SQLSTATE for PostgreSQL). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'StoreRejectedError';
  }
}

/**
 * A dependency the request or job needs (the store, Redis) does not answer now: try again later.
 * Not a DomainError, so nothing that handles the domain's refusals mistakes it for one: the HTTP
 * layer answers 503 with `Retry-After`; the queue retries the job without spending an attempt.
 */
export class ServiceUnavailableError extends Error {
  /** What the dependency's client said, for logs; callers see only the message. */
  readonly detail?: string;

  constructor(
    readonly code: string,
    message: string,
    /** How long a caller should wait before trying again. */
    readonly retryAfterSeconds = 5,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * The store cannot be reached (connection refused or lost, the database starting or stopping). The
 * message is the same for every cause, since callers see it; `detail` says what the driver said, for logs.
 */
export class StoreUnavailableError extends ServiceUnavailableError {
  constructor(override readonly detail: string) {
    super('store_unavailable', 'The store cannot be reached; retry later');
  }
}

/** Errors no retry will fix: bad input the domain refused, or data the store refused. */
export function isPermanentFailure(error: unknown): boolean {
  return error instanceof DomainError || error instanceof StoreRejectedError;
}
