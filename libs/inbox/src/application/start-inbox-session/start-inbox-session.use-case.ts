import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { API_KEY_SEALER, ApiKeySealer, ENVIRONMENT_REPOSITORY, Environment, EnvironmentRepository } from '@app/environments';
import { CLOCK, Clock, EnvironmentScope } from '@app/kernel';
import { SubscriberChanges, UpsertSubscriber } from '@app/subscribers';
import { InvalidApplicationIdentifierError, InvalidSubscriberHashError, SubscriberIdRequiredError } from '../../domain/errors';
import { SEVERITIES, UNREAD_FILTER } from '../../domain/inbox-filter';
import { INBOX_REPOSITORY, InboxRepository } from '../../ports/inbox.repository.port';
import { SUBSCRIBER_TOKENS, SubscriberTokens } from '../../ports/subscriber-tokens.port';

export interface StartInboxSessionCommand {
  applicationIdentifier: string;
  subscriberId?: string;
  /** Upserted: created when missing, its given fields updated otherwise. */
  subscriber?: { subscriberId?: string } & SubscriberChanges;
  subscriberHash?: string;
}

export interface InboxSession {
  token: string;
  totalUnreadCount: number;
  /** What the client's bell starts from: the unread count, in total and per severity. */
  unreadCount: { total: number; severity: Record<string, number> };
  removeNovuBranding: boolean;
  isDevelopmentMode: boolean;
  maxSnoozeDurationHours: number;
}

/** How far ahead a snooze may reach, as the session tells the client. */
export const MAX_SNOOZE_DURATION_HOURS = 90 * 24;

/**
 * POST /v1/inbox/session: finds the environment by its public identifier, checks the subscriber
 * hash when the environment requires one, upserts the subscriber and signs its token.
 */
@Injectable()
export class StartInboxSession {
  constructor(
    @Inject(ENVIRONMENT_REPOSITORY) private readonly environments: EnvironmentRepository,
    @Inject(API_KEY_SEALER) private readonly sealer: ApiKeySealer,
    @Inject(INBOX_REPOSITORY) private readonly inbox: InboxRepository,
    @Inject(SUBSCRIBER_TOKENS) private readonly tokens: SubscriberTokens,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly upsertSubscriber: UpsertSubscriber,
  ) {}

  async execute(command: StartInboxSessionCommand): Promise<InboxSession> {
    const environment = await this.environments.findEnvironmentByIdentifier(command.applicationIdentifier);
    if (!environment) throw new InvalidApplicationIdentifierError();
    const { subscriberId: nested, ...changes } = command.subscriber ?? {};
    const subscriberId = nested || command.subscriberId;
    if (!subscriberId) throw new SubscriberIdRequiredError();
    if (environment.inboxHmac) await this.checkHash(environment, subscriberId, command.subscriberHash);

    const scope: EnvironmentScope = { organizationId: environment.organizationId, environmentId: environment.id };
    const { subscriber } = await this.upsertSubscriber.execute({ scope, subscriberId, changes });
    const session = { ...scope, subscriberInternalId: subscriber.id, subscriberId };
    const [token, ...bySeverity] = await Promise.all([
      this.tokens.sign(session, this.clock.now()),
      ...SEVERITIES.map((severity) => this.inbox.count(scope, subscriber.id, { ...UNREAD_FILTER, severity: [severity] })),
    ]);
    const totalUnreadCount = bySeverity.reduce((sum, count) => sum + count, 0);
    return {
      token,
      totalUnreadCount,
      unreadCount: { total: totalUnreadCount, severity: Object.fromEntries(SEVERITIES.map((name, index) => [name, bySeverity[index]])) },
      removeNovuBranding: false,
      isDevelopmentMode: environment.name === 'Development',
      maxSnoozeDurationHours: MAX_SNOOZE_DURATION_HOURS,
    };
  }

  /** HMAC-SHA256 of the subscriberId keyed with any API key of the environment (hex), compared in constant time. */
  private async checkHash(environment: Environment, subscriberId: string, hash: string | undefined): Promise<void> {
    if (!hash || !/^[0-9a-f]{64}$/i.test(hash)) throw new InvalidSubscriberHashError();
    const given = Buffer.from(hash.toLowerCase(), 'hex');
    const keys = await this.environments.listApiKeys(environment.id);
    for (const key of keys) {
      if (!key.sealedSecret) continue;
      const expected = createHmac('sha256', this.sealer.open(key.sealedSecret)).update(subscriberId).digest();
      if (timingSafeEqual(expected, given)) return;
    }
    throw new InvalidSubscriberHashError();
  }
}
