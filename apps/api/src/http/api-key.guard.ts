import { ExecutionContext, Injectable, SetMetadata, UnauthorizedException, createParamDecorator } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { AuthenticatedScope } from '@app/environments';
import { DomainError } from '@app/kernel';
import { API_KEY_STRATEGY } from './api-key.strategy';

const PUBLIC_ROUTE = 'publicRoute';
/** Marks a route that needs no API key (health, docs). */
export const PublicRoute = () => SetMetadata(PUBLIC_ROUTE, true);

/** `Authorization: ApiKey <key>`, with Novu's 401 messages for each way it can be wrong. */
@Injectable()
export class ApiKeyGuard extends AuthGuard(API_KEY_STRATEGY) {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const header: string | undefined = context.switchToHttp().getRequest().headers.authorization;
    if (!header) throw new UnauthorizedException('Missing authorization header');
    const [scheme, key] = header.split(' ');
    if (scheme !== 'ApiKey') throw new UnauthorizedException(invalidSchemeMessage(scheme));
    if (!key?.trim()) throw new UnauthorizedException('Unauthorized');
    return super.canActivate(context);
  }

  override handleRequest<T>(error: unknown, scope: T): T {
    if (error instanceof DomainError) throw new UnauthorizedException(error.message);
    if (error) throw error instanceof Error ? error : new UnauthorizedException(String(error));
    if (!scope) throw new UnauthorizedException('API Key not found');
    return scope;
  }
}

/**
 * Novu's 401 text names the scheme it got; a bare key sent without `ApiKey ` would be that "scheme",
 * so only a word that looks like a scheme (`Bearer`, `Basic`) is echoed, never a credential.
 */
function invalidSchemeMessage(scheme: string): string {
  return /^[A-Za-z][A-Za-z-]{0,19}$/.test(scheme)
    ? `Invalid authentication scheme: "${scheme}"`
    : 'Invalid authentication scheme: expected "Authorization: ApiKey <key>"';
}

/** The caller's organization and environment, as resolved from the API key. */
export const CurrentScope = createParamDecorator((_: unknown, context: ExecutionContext): AuthenticatedScope => context.switchToHttp().getRequest().user);
