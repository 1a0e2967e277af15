import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map } from 'rxjs';

const RAW_RESPONSE = 'rawResponse';
/** The handler already returns the wire shape (paginated lists: `{data, page, …}`). */
export const RawResponse = () => SetMetadata(RAW_RESPONSE, true);

/** Wraps success bodies in `{ data }` as Novu does. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler) {
    const raw = this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [context.getHandler(), context.getClass()]);
    return raw ? next.handle() : next.handle().pipe(map((data) => (data === undefined ? undefined : { data })));
  }
}
