import { CanActivate, ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import { AuthenticateSubscriber, InvalidSubscriberTokenError, SubscriberSession } from '@app/inbox';

/** `Authorization: Bearer <subscriber token>` of POST /v1/inbox/session; an API key is refused here, as a token is on API-key routes. */
@Injectable()
export class SubscriberTokenGuard implements CanActivate {
  constructor(private readonly authenticate: AuthenticateSubscriber) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    const header: string | undefined = request.headers.authorization;
    const [scheme, token] = (header ?? '').split(' ');
    if (scheme !== 'Bearer' || !token) throw new InvalidSubscriberTokenError('Missing subscriber token: expected "Authorization: Bearer <token>"');
    request.subscriberSession = await this.authenticate.execute(token.trim());
    return true;
  }
}

/** The subscriber and environment the token speaks for. */
export const CurrentSubscriber = createParamDecorator(
  (_: unknown, context: ExecutionContext): SubscriberSession => context.switchToHttp().getRequest().subscriberSession,
);
