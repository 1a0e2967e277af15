import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '@app/config';
import { AuthenticatedScope } from '@app/environments';
import { CLOCK, Clock, DomainError, RATE_LIMIT_STORE, RateLimitHit, RateLimitStore } from '@app/kernel';
import { InProcessRateLimitStore } from './in-process-rate-limit.store';

/** An environment sent more triggers than TRIGGER_RATE_LIMIT allows in the current window. */
export class TriggerRateLimitedError extends DomainError {
  constructor(limit: number, windowSeconds: number, retryAfterSeconds: number) {
    super(
      'rate_limited',
      `Too many triggers: this environment may send ${limit} per ${windowSeconds} seconds; retry after ${retryAfterSeconds} seconds`,
      'rate_limited',
    );
  }
}

/** The environment's counter of trigger requests (all trigger routes share it). */
export const triggerRateLimitKey = (environmentId: string) => `trigger:${environmentId}`;

/** While the shared counter fails, one request this often tries it again; the others count in the process. */
export const SHARED_COUNTER_RETRY_MS = 5_000;

/**
 * Counts trigger requests per environment (the API key's) in fixed windows of
 * TRIGGER_RATE_LIMIT_WINDOW_SECONDS and refuses those over TRIGGER_RATE_LIMIT with 429. Every
 * answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds); a 429
 * also `Retry-After`. A guard runs before the idempotency interceptor, the pipes and the handler,
 * so a refused request stores nothing. With TRIGGER_RATE_LIMIT=0 it does nothing at all.
 *
 * When the shared counter (Redis) fails or times out, this process counts on its own, with the same
 * limit, until the counter answers again: the limit still holds per process, and no request waits for
 * Redis more than once in SHARED_COUNTER_RETRY_MS. The outage is logged once, and its end.
 */
@Injectable()
export class TriggerRateLimitGuard implements CanActivate {
  private readonly logger = new Logger('RateLimit');
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly local: InProcessRateLimitStore;
  /** Set while the shared counter fails: when to try it again. */
  private retrySharedAt?: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    ({ limit: this.limit, windowMs: this.windowMs } = config.triggerRateLimit);
    this.local = new InProcessRateLimitStore(clock);
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.limit === 0) return true;
    const http = context.switchToHttp();
    // ApiKeyGuard (global, so it ran first) has put the scope there
    const request = http.getRequest<FastifyRequest & { user?: AuthenticatedScope }>();
    const scope = request.user;
    if (!scope) return true;
    return this.count(scope.environmentId, this.cost(request), http.getResponse<FastifyReply>());
  }

  /** Triggers this request asks for (one; a bulk request, each of its events). */
  protected cost(_request: FastifyRequest): number {
    return 1;
  }

  private async count(environmentId: string, cost: number, response: FastifyReply): Promise<boolean> {
    const hit = await this.hit(triggerRateLimitKey(environmentId), cost);
    const resetSeconds = Math.max(1, Math.ceil(hit.resetInMs / 1000));
    void response.headers({
      'RateLimit-Limit': String(this.limit),
      'RateLimit-Remaining': String(Math.max(0, this.limit - hit.count)),
      'RateLimit-Reset': String(resetSeconds),
    });
    if (hit.count <= this.limit) return true;
    void response.header('Retry-After', String(resetSeconds));
    throw new TriggerRateLimitedError(this.limit, this.windowMs / 1000, resetSeconds);
  }

  private async hit(key: string, cost: number): Promise<RateLimitHit> {
    const now = this.clock.now().getTime();
    if (this.retrySharedAt !== undefined) {
      if (now < this.retrySharedAt) return this.local.hit(key, this.windowMs, cost);
      this.retrySharedAt = now + SHARED_COUNTER_RETRY_MS; // this request tries it; the others meanwhile count here
    }
    try {
      const hit = await this.store.hit(key, this.windowMs, cost);
      if (this.retrySharedAt !== undefined) {
        this.retrySharedAt = undefined;
        this.logger.log('Trigger rate limit counted by its shared counter again');
      }
      return hit;
    } catch (error) {
      if (this.retrySharedAt === undefined) {
        this.logger.warn(`Trigger rate limit counted per api process, its shared counter failed: ${(error as Error)?.message}`);
      }
      this.retrySharedAt = this.clock.now().getTime() + SHARED_COUNTER_RETRY_MS;
      return this.local.hit(key, this.windowMs, cost);
    }
  }
}

/** Events one bulk request may carry; a larger array is refused by validation, and counts this much. */
export const MAX_BULK_EVENTS = 100;

/** The same limit for `POST /v1/events/trigger/bulk`: each event counts as one trigger. */
@Injectable()
export class BulkTriggerRateLimitGuard extends TriggerRateLimitGuard {
  protected override cost(request: FastifyRequest): number {
    const events = (request.body as { events?: unknown } | undefined)?.events;
    return Array.isArray(events) ? Math.min(Math.max(events.length, 1), MAX_BULK_EVENTS) : 1;
  }
}
