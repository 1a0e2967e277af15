import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, defer, from, mergeAll } from 'rxjs';
import { EnvelopeInterceptor } from './envelope.interceptor';
import { FairAdmissionInterceptor } from './fair-admission.interceptor';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * The global interceptors as one: admission (a request waits its turn before anything else), then
 * idempotency (which sees the enveloped body), then the `{data}` envelope. Nest wraps each
 * interceptor it chains in an AsyncResource, a cost per interceptor per request; chained here, the
 * three pay it once.
 */
@Injectable()
export class ApiRequestInterceptor implements NestInterceptor {
  private readonly stages: NestInterceptor[];

  constructor(admission: FairAdmissionInterceptor, idempotency: IdempotencyInterceptor, envelope: EnvelopeInterceptor) {
    this.stages = [admission, idempotency, envelope];
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const stage = (index: number): Observable<unknown> => {
      if (index === this.stages.length) return next.handle();
      // Lazy, as Nest's own handle: a stage that throws at once must reach the earlier stages as an
      // error of the stream (admission's finalize releases the slot), not escape before they subscribe.
      const handled = this.stages[index].intercept(context, { handle: () => defer(() => stage(index + 1)) });
      return handled instanceof Observable ? handled : from(handled).pipe(mergeAll());
    };
    return stage(0);
  }
}
