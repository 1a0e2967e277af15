import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Observable, defer, finalize, mergeMap } from 'rxjs';
import { APP_CONFIG, AppConfig } from '@app/config';
import { AuthenticatedScope } from '@app/environments';
import { FairAdmission, Release } from './fair-admission';

type AdmittedRequest = FastifyRequest & { user?: AuthenticatedScope; releaseAdmission?: Release };

/**
 * The request's admission slot, to hand back early once the request only waits on work shared with
 * others (a trigger waiting for its batch's insert): the slot bounds work running, not waiting.
 * Releasing twice does nothing; the interceptor releases it at the end in any case.
 */
export const AdmissionRelease = createParamDecorator(
  (_: unknown, context: ExecutionContext): Release => context.switchToHttp().getRequest<AdmittedRequest>().releaseAdmission ?? (() => undefined),
);

/**
 * Runs each API-key request through FairAdmission, keyed by its environment. Outermost of the
 * interceptors, after the guards (so the key is known and a refused request never waits) and before
 * the pipes (so validation, the costly part of a bad request, waits its turn too).
 */
@Injectable()
export class FairAdmissionInterceptor implements NestInterceptor {
  private readonly admission: FairAdmission;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.admission = new FairAdmission(config.admission.maxInFlightPerEnvironment, config.admission.maxQueuedPerEnvironment);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<AdmittedRequest>();
    const scope = request.user;
    if (!scope) return next.handle();
    return defer(async () => this.admission.acquire(scope.environmentId)).pipe(
      mergeMap((release) => {
        request.releaseAdmission = release;
        return next.handle().pipe(finalize(release));
      }),
    );
  }
}
