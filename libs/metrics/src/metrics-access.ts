import { createHash, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@app/kernel';

/** What a refused scrape is told (RFC 6750), on the public port and on METRICS_PORT alike. */
export const METRICS_CHALLENGE = 'Bearer realm="metrics"';

export class MetricsTokenRequiredError extends DomainError {
  constructor() {
    super('metrics_token_required', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>', 'unauthorized');
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Who may scrape: anyone, or (METRICS_TOKEN) only a request sending `Authorization: Bearer <token>`.
 * Digests of equal length are compared in constant time, so an answer's timing tells nothing of the token.
 */
export class MetricsAccess {
  private readonly expected?: Buffer;

  constructor(token?: string) {
    this.expected = token === undefined ? undefined : digest(token);
  }

  allows(authorization: string | undefined): boolean {
    if (!this.expected) return true;
    const bearer = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
    return bearer !== null && timingSafeEqual(digest(bearer[1]), this.expected);
  }
}
