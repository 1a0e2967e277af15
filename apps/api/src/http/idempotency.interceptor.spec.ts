import { CallHandler, ExecutionContext } from '@nestjs/common';
import { lastValueFrom, of, throwError } from 'rxjs';
import { IdempotencyRecord, IdempotencyStore, ServiceUnavailableError, StoredResponse } from '@app/kernel';
import { RenderedError, toErrorResponse } from './error-response';
import { IdempotencyInterceptor, idempotencyBodyHash } from './idempotency.interceptor';

/** An in-memory store that records what the interceptor asked of it. */
class MemoryStore implements IdempotencyStore {
  readonly records = new Map<string, IdempotencyRecord>();
  failClaims = false;
  failWrites = false;
  async claim(key: string, bodyHash: string): Promise<IdempotencyRecord | null> {
    if (this.failClaims) throw new Error('Command timed out');
    const existing = this.records.get(key);
    if (existing) return existing;
    this.records.set(key, { state: 'in_progress', bodyHash });
    return null;
  }
  async complete(key: string, bodyHash: string, response: StoredResponse): Promise<void> {
    if (this.failWrites) throw new Error('Command timed out');
    this.records.set(key, { state: 'done', bodyHash, response });
  }
  async release(key: string): Promise<void> {
    if (this.failWrites) throw new Error('Command timed out');
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

function silenceWarnings(interceptor: IdempotencyInterceptor) {
  return jest.spyOn((interceptor as unknown as { logger: { warn: () => void } }).logger, 'warn').mockImplementation(() => undefined);
}

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

  it('answers 503 with Retry-After and a JSON body when the store does not answer, without running the handler', async () => {
    const store = new MemoryStore();
    store.failClaims = true;
    const interceptor = new IdempotencyInterceptor(store);
    const handle = jest.fn(() => of('ran'));
    const error = await lastValueFrom(interceptor.intercept(context().ctx, { handle })).catch((e) => e);
    expect(error).toMatchObject({ detail: 'Command timed out' });
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    const rendered = toErrorResponse(error, '/v1/events/trigger');
    expect(rendered).toMatchObject({
      statusCode: 503,
      headers: { 'Retry-After': '5' },
      body: { statusCode: 503, code: 'idempotency_store_unavailable', path: '/v1/events/trigger' },
    });
    expect(handle).not.toHaveBeenCalled();
  });

  it("gives the handler's answer when the store fails to record it, and a handler's error when it fails to free the key", async () => {
    const store = new MemoryStore();
    const interceptor = new IdempotencyInterceptor(store);
    const warn = silenceWarnings(interceptor);
    store.failWrites = true;
    expect(
      await lastValueFrom(
        interceptor.intercept(
          context('k2').ctx,
          handler(() => ({ data: { ok: true } })),
        ),
      ),
    ).toEqual({ data: { ok: true } });
    const error = await lastValueFrom(
      interceptor.intercept(
        context('k3').ctx,
        handler(() => {
          throw new ServiceUnavailableError('store_unavailable', 'the store is down');
        }),
      ),
    ).catch((e) => e);
    expect(toErrorResponse(error, '/ignored')).toMatchObject({ statusCode: 503, body: { code: 'store_unavailable' } });
    expect(warn).toHaveBeenCalledTimes(2);
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
