import { CallHandler, ExecutionContext, HttpException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { lastValueFrom, of } from 'rxjs';
import { AppConfig } from '@app/config';
import { IdempotencyStore } from '@app/kernel';
import { ApiRequestInterceptor } from './api-request.interceptor';
import { EnvelopeInterceptor } from './envelope.interceptor';
import { FairAdmissionInterceptor } from './fair-admission.interceptor';
import { IdempotencyInterceptor } from './idempotency.interceptor';

describe('ApiRequestInterceptor', () => {
  const config = { admission: { maxInFlightPerEnvironment: 1, maxQueuedPerEnvironment: 10 } } as AppConfig;
  const context = (idempotencyKey?: string) => {
    const request = { method: 'POST', url: '/v1/tenants', body: {}, user: { environmentId: 'env' }, headers: { 'idempotency-key': idempotencyKey } };
    const reply = { header: () => reply, status: () => reply, statusCode: 201 };
    return {
      switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
      getHandler: () => () => undefined,
      getClass: () => Object,
    } as unknown as ExecutionContext;
  };
  const handler: CallHandler = { handle: () => of({ ok: true }) };

  it('wraps in {data} and frees the admission slot when a later stage refuses the request at once', async () => {
    const interceptor = new ApiRequestInterceptor(
      new FairAdmissionInterceptor(config),
      new IdempotencyInterceptor({} as IdempotencyStore),
      new EnvelopeInterceptor(new Reflector()),
    );
    // one slot: a key over 255 characters is refused synchronously by the idempotency stage
    await expect(lastValueFrom(interceptor.intercept(context('k'.repeat(300)), handler))).rejects.toBeInstanceOf(HttpException);
    // the slot was given back, so the next request runs (it would wait for ever otherwise)
    await expect(lastValueFrom(interceptor.intercept(context(), handler))).resolves.toEqual({ data: { ok: true } });
  });
});
