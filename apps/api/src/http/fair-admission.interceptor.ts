import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Observable, defer, finalize, mergeMap } from 'rxjs';
import { APP_CONFIG, AppConfig } from '@app/config';
import { AuthenticatedScope } from '@app/environments';
import { FairAdmission } from './fair-admission';

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
    const scope = context.switchToHttp().getRequest<FastifyRequest & { user?: AuthenticatedScope }>().user;
    if (!scope) return next.handle();
    return defer(async () => this.admission.acquire(scope.environmentId)).pipe(mergeMap((release) => next.handle().pipe(finalize(release))));
  }
}
