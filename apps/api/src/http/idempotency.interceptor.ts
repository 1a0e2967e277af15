import {
  CallHandler,
  ConflictException,
  ExecutionContext,
  HttpException,
  Inject,
  Injectable,
  Logger,
  NestInterceptor,
  Optional,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, catchError, from, mergeMap, of, throwError } from 'rxjs';
import { IDEMPOTENCY_STORE, IdempotencyStore, ServiceUnavailableError } from '@app/kernel';
import { AuthenticatedScope } from '@app/environments';
import { ErrorResponse, RenderedError, toErrorResponse } from './error-response';

const IN_PROGRESS_TTL_SECONDS = 5 * 60;
const REPLAY_TTL_SECONDS = 24 * 60 * 60;
const MAX_KEY_LENGTH = 255;

/** The key's store failed or did not answer in time (a stalled Redis); `detail` is what its client said, for logs. */
class IdempotencyStoreUnavailableError extends ServiceUnavailableError {
  constructor(override readonly detail: string) {
    super('idempotency_store_unavailable', 'The idempotency store is unavailable, please retry later');
  }
}

/** Keys are per environment: the same key sent with another environment's API key is a different key. */
export function idempotencyStoreKey(environmentId: string, key: string): string {
  return `${environmentId}:${key}`;
}

export function idempotencyBodyHash(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
}

const REPLAY_OMITS = 'idempotency:replay-omits';

/**
 * Fields of the answer's `data` kept out of the stored replay (a secret shown once): the store never
 * holds them, and a replay answers without them.
 */
export const IdempotencyReplayOmits = (...fields: string[]) => SetMetadata(REPLAY_OMITS, fields);

/**
 * Idempotency-Key on POST and PATCH: the first request claims the key, a concurrent twin gets 409,
 * a different body 422, and a finished request is replayed with its status and body for 24 h.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(
    @Inject(IDEMPOTENCY_STORE) private readonly store: IdempotencyStore,
    @Optional() private readonly reflector?: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: AuthenticatedScope }>();
    const response = context.switchToHttp().getResponse<FastifyReply>();
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || !['POST', 'PATCH'].includes(request.method) || !request.user) return next.handle();
    void response.header('Idempotency-Key', key);
    if (key.length > MAX_KEY_LENGTH) {
      throw new HttpException({ message: `idempotencyKey "${key}" has exceeded the maximum allowed length of ${MAX_KEY_LENGTH} characters` }, 400);
    }
    const scopedKey = idempotencyStoreKey(request.user.environmentId, key);
    const bodyHash = idempotencyBodyHash(request.body);

    return from(this.claim(scopedKey, bodyHash)).pipe(
      mergeMap((existing) => {
        if (existing && existing.bodyHash !== bodyHash) {
          throw new HttpException({ message: `Request with key "${key}" is being reused for a different body` }, 422);
        }
        if (existing?.state === 'in_progress') {
          const conflict = new ConflictException(`Request with key "${key}" is currently being processed. Please retry after 1 second`);
          (conflict as unknown as { headers: Record<string, string> }).headers = { 'Retry-After': '1' };
          throw conflict;
        }
        if (existing?.state === 'done') {
          void response.header('Idempotency-Replay', 'true').status(existing.response.statusCode);
          return of(existing.response.body);
        }
        return next.handle().pipe(
          mergeMap(async (body) => {
            const omits = this.reflector?.get<string[] | undefined>(REPLAY_OMITS, context.getHandler());
            await this.settle(() =>
              this.store.complete(
                scopedKey,
                bodyHash,
                { statusCode: response.statusCode, body: omits ? withoutFields(body, omits) : body },
                REPLAY_TTL_SECONDS,
              ),
            );
            return body;
          }),
          catchError((error) =>
            from(this.settleError(scopedKey, bodyHash, error, request.url)).pipe(mergeMap((rendered) => throwError(() => new RenderedError(rendered)))),
          ),
        );
      }),
    );
  }

  // Without its store the key cannot be honoured; 503 (as Novu) with Retry-After tells the client to retry
  // later, not that it erred. The handler has not run: nothing of the request is stored.
  private async claim(key: string, bodyHash: string) {
    try {
      return await this.store.claim(key, bodyHash, IN_PROGRESS_TTL_SECONDS);
    } catch (error) {
      throw new IdempotencyStoreUnavailableError((error as Error)?.message);
    }
  }

  // A client error is the answer to that body and is replayed; a server error frees the key for a retry.
  // Rendered once here, so the replay is byte-for-byte what the first caller got.
  private async settleError(key: string, bodyHash: string, error: unknown, path: string): Promise<ErrorResponse> {
    const rendered = toErrorResponse(error, path);
    await this.settle(() =>
      rendered.statusCode >= 500
        ? this.store.release(key)
        : this.store.complete(key, bodyHash, { statusCode: rendered.statusCode, body: rendered.body }, REPLAY_TTL_SECONDS),
    );
    return rendered;
  }

  // The request has run: its answer stands even when the store fails to record it (a stalled Redis
  // times out). The write usually lands once the store answers; if not, the claim expires.
  private async settle(write: () => Promise<void>): Promise<void> {
    await write().catch((error: unknown) => this.logger.warn(`Idempotency key not settled, its store failed: ${(error as Error)?.message}`));
  }
}

/** A copy of an answer `{ data: {...} }` without the given fields of its data. */
function withoutFields(body: unknown, fields: string[]): unknown {
  const data = (body as { data?: unknown } | null)?.data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return body;
  const kept = Object.fromEntries(Object.entries(data).filter(([key]) => !fields.includes(key)));
  return { ...(body as object), data: kept };
}
