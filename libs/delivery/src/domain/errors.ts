import { DomainError, InvalidRequestError } from '@app/kernel';

/** A delay step whose configuration or payload cannot give a wait (Novu: detail "Invalid delay configuration"). */
export class InvalidDelayError extends InvalidRequestError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
  }

  static futureDateRequired(delayPath: string): InvalidDelayError {
    return new InvalidDelayError('delay_date_not_in_future', 'Delay date at path must be a future date', { delayPath });
  }
}

/** A throttle step whose configuration or payload cannot give a window (Novu: "Throttle window in past" for a dynamic end already reached). */
export class InvalidThrottleError extends InvalidRequestError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
  }
}

export class InvalidDigestError extends InvalidRequestError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
  }
}

/** A wait longer than the system limit (Novu: detail "Defer duration limit exceeded"). */
export class DeferDurationExceededError extends InvalidRequestError {
  constructor(
    readonly delayMs: number,
    readonly limitMs: number,
  ) {
    super('defer_duration_exceeded', `Defer duration limit exceeded: ${delayMs} ms is more than ${limitMs} ms`, {
      delayMs,
      limitMs,
    });
  }
}

/** A template that cannot be parsed or rendered, or that broke a limit (Novu: "Message content could not be generated"). */
export class TemplateRenderError extends DomainError {
  constructor(
    message: string,
    readonly reason: 'parse' | 'render' | 'limit' | 'too_large',
    details?: Record<string, unknown>,
  ) {
    super('template_render_failed', message, 'unprocessable', details);
  }
}
