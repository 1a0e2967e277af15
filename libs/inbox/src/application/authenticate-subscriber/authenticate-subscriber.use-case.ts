import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '@app/kernel';
import { InvalidSubscriberTokenError } from '../../domain/errors';
import { SubscriberSession } from '../../domain/subscriber-session';
import { SUBSCRIBER_TOKENS, SubscriberTokens } from '../../ports/subscriber-tokens.port';

/** A subscriber token (Inbox routes and sockets) to the session it stands for. */
@Injectable()
export class AuthenticateSubscriber {
  constructor(
    @Inject(SUBSCRIBER_TOKENS) private readonly tokens: SubscriberTokens,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute(token: string | undefined): Promise<SubscriberSession> {
    if (!token) return Promise.reject(new InvalidSubscriberTokenError('Missing subscriber token'));
    return this.tokens.verify(token, this.clock.now());
  }
}
