import { CallHandler, ExecutionContext, ServiceUnavailableException } from '@nestjs/common';
import { lastValueFrom, of, throwError } from 'rxjs';
import { IdempotencyRecord, IdempotencyStore, StoredResponse } from '@app/kernel';
import { RenderedError, toErrorResponse } from './error-response';
import { IdempotencyInterceptor, idempotencyBodyHash } from './idempotency.interceptor';

/** An in-memory store that records what the interceptor asked of it. */
class MemoryStore implements IdempotencyStore {
  readonly records = new Map<string, IdempotencyRecord>();
  failClaims = false;
  async claim(key: string, bodyHash: string): Promise<IdempotencyRecord | null> {
    if (this.failClaims) throw new Error('connection refused');
    const existing = this.records.get(key);
    if (existing) return existing;
    this.records.set(key, { state: 'in_progress', bodyHash });
    return null;
  }
  async complete(key: string, bodyHash: string, response: StoredResponse): Promise<void> {
    this.records.set(key, { state: 'done', bodyHash, response });
  }
  async release(key: string): Promise<void> {
    this.records.delete(key);
  }
}

function context(key = 'k1') {
  const headers: Record<string, string> = {};
  const response = {
    statusCode: 201,
    header(name: string, value: string) {
      headers[name] = value;
      return this;
    },
    status(code: number) {
      this.statusCode = code;
      return this;
    },
  };
  const request = {
    method: 'POST',
    url: '/v1/tenants',
    body: { identifier: 'a' },
    user: { organizationId: 'o', environmentId: 'e', apiKeyId: 'k' },
    headers: { 'idempotency-key': key },
  };
  const ctx = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }) } as unknown as ExecutionContext;
  return { ctx, response, headers };
}

const handler = (result: () => unknown): CallHandler => ({
  handle: () => {
    try {
      return of(result());
    } catch (error) {
      return throwError(() => error);
    }
  },
});

describe('IdempotencyInterceptor', () => {
  it('frees the key after a server error, so a retry runs again, and renders the 500 only once', async () => {
    const store = new MemoryStore();
    const interceptor = new IdempotencyInterceptor(store);
    const first = context();
    const failure = lastValueFrom(
      interceptor.intercept(
        first.ctx,
        handler(() => {
          throw new Error('database exploded');
        }),
      ),
    );
    const error = await failure.catch((e) => e);
    expect(error).toBeInstanceOf(RenderedError);
    const rendered = toErrorResponse(error, '/ignored');
    expect(rendered.statusCode).toBe(500);
    // The filter shows exactly what was rendered (one errorId, the one in the log).
    expect(toErrorResponse(error, '/ignored')).toBe(rendered);
    expect(store.records.size).toBe(0);

    const retry = context();
    const body = await lastValueFrom(
      interceptor.intercept(
        retry.ctx,
        handler(() => ({ data: { ok: true } })),
      ),
    );
    expect(body).toEqual({ data: { ok: true } });
    expect(store.records.get('e:k1')).toMatchObject({ state: 'done', response: { statusCode: 201, body: { data: { ok: true } } } });
  });

  it('answers 503 when the store cannot be reached, without running the handler', async () => {
    const store = new MemoryStore();
    store.failClaims = true;
    const interceptor = new IdempotencyInterceptor(store);
    const handle = jest.fn(() => of('ran'));
    const error = await lastValueFrom(interceptor.intercept(context().ctx, { handle })).catch((e) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableException);
    expect(handle).not.toHaveBeenCalled();
  });

  it('replays a stored answer with its status and the replay header', async () => {
    const store = new MemoryStore();
    const stored = { statusCode: 409, body: { message: 'taken' } };
    store.records.set('e:k1', { state: 'done', bodyHash: idempotencyBodyHash({ identifier: 'a' }), response: stored });
    const interceptor = new IdempotencyInterceptor(store);
    const { ctx, response, headers } = context();
    const handle = jest.fn(() => of('ran'));
    expect(await lastValueFrom(interceptor.intercept(ctx, { handle }))).toEqual({ message: 'taken' });
    expect(response.statusCode).toBe(409);
    expect(headers).toMatchObject({ 'Idempotency-Replay': 'true', 'Idempotency-Key': 'k1' });
    expect(handle).not.toHaveBeenCalled();
  });
});
