import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, Channel, Clock, Condition, EnvironmentScope, newId } from '@app/kernel';
import { cleanCredentials } from '../../domain/credentials';
import {
  EnvironmentMismatchError,
  InAppIntegrationExistsError,
  IntegrationCheckFailedError,
  IntegrationCheckUnavailableError,
  IntegrationIdentifierTakenError,
} from '../../domain/errors';
import { IntegrationRateLimit, validateDeliveryLimits } from '../../domain/delivery-limits';
import { generateIdentifier } from '../../domain/identifier';
import { Integration, IntegrationConfigurations, IntegrationCredentials } from '../../domain/integration';
import { assertCredentialsForActive, normalizeConditions, resolveProvider, validateFallbacks } from '../../domain/integration-validation';
import { channelHasPrimary } from '../../domain/primary-rules';
import { rankChannelInStore } from '../rank-channel';
import { INTEGRATION_CHECKER, IntegrationChecker } from '../../ports/integration-checker.port';
import { INTEGRATION_REPOSITORY, IntegrationRepository } from '../../ports/integration.repository.port';

export interface CreateIntegrationCommand {
  scope: EnvironmentScope;
  providerId: string;
  channel: Channel;
  name?: string;
  identifier?: string;
  /** Optional in Novu's body; here it may only name the key's own environment. */
  environmentId?: string;
  credentials?: Record<string, IntegrationCredentials[string] | null>;
  active?: boolean;
  check?: boolean;
  conditions?: Condition[];
  configurations?: IntegrationConfigurations;
  /** Identifiers of integrations of the same channel to try when this one fails for good. */
  fallbacks?: string[];
  /** Vendor calls per second (and burst) through this integration; absent: the provider's default. */
  rateLimit?: IntegrationRateLimit;
  /** Vendor calls in flight at once through this integration; absent: the provider's default. */
  maxConcurrency?: number;
}

/** Generated identifiers may collide (rarely): try a few suffixes before giving up. */
const GENERATED_IDENTIFIER_ATTEMPTS = 5;

@Injectable()
export class CreateIntegration {
  constructor(
    @Inject(INTEGRATION_REPOSITORY) private readonly integrations: IntegrationRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    // A process without provider adapters (the CLI) cannot check; asking it to is an error, not a no-op.
    @Optional() @Inject(INTEGRATION_CHECKER) private readonly checker?: IntegrationChecker,
  ) {}

  async execute(command: CreateIntegrationCommand): Promise<Integration> {
    const { scope } = command;
    if (command.environmentId !== undefined && command.environmentId !== scope.environmentId) throw new EnvironmentMismatchError();
    const provider = resolveProvider(command.providerId, command.channel);
    const credentials = cleanCredentials(command.credentials);
    const active = command.active ?? false;
    const limits = validateDeliveryLimits(command);
    if (active) assertCredentialsForActive(provider, credentials);

    const name = command.name ?? provider.displayName;
    const conditions = normalizeConditions(command.conditions);
    const now = this.clock.now();
    const draft: Integration = {
      id: newId(now.getTime()),
      organizationId: scope.organizationId,
      environmentId: scope.environmentId,
      name,
      identifier: command.identifier ?? generateIdentifier(name),
      providerId: provider.id,
      channel: command.channel,
      credentials,
      configurations: command.configurations ?? {},
      active,
      primary: false,
      priority: 0,
      conditions,
      fallbacks: [],
      ...limits,
      deleted: false,
      createdAt: now,
      updatedAt: now,
    };
    if (command.fallbacks?.length) draft.fallbacks = validateFallbacks(command.fallbacks, draft, await this.integrations.list(scope));
    if (command.check) {
      const result = await this.runCheck(draft);
      if (!result.ok) throw new IntegrationCheckFailedError(result.message ?? `The ${provider.displayName} integration check failed`);
    }

    // Written unranked (priority 0), then placed among the channel's active integrations.
    const integration = await this.insert(draft, command.identifier === undefined);
    if (!channelHasPrimary(integration.channel) || !integration.active) return integration;
    const event = { kind: 'placed', id: integration.id, mayBecomePrimary: conditions.length === 0 } as const;
    const ranking = await rankChannelInStore(this.integrations, this.clock, scope, integration.channel, event, integration.id);
    const own = ranking.find((ranked) => ranked.id === integration.id);
    return own ? { ...integration, primary: own.primary, priority: own.priority, updatedAt: own.updatedAt } : integration;
  }

  private async insert(integration: Integration, identifierGenerated: boolean): Promise<Integration> {
    for (let attempt = 1; ; attempt++) {
      const result = await this.integrations.insert(integration);
      if (result === 'inserted') return integration;
      if (result === 'in_app_taken') throw new InAppIntegrationExistsError();
      if (!identifierGenerated || attempt >= GENERATED_IDENTIFIER_ATTEMPTS) throw new IntegrationIdentifierTakenError(integration.identifier);
      integration = { ...integration, identifier: generateIdentifier(integration.name) };
    }
  }

  private runCheck(integration: Integration) {
    if (!this.checker) throw new IntegrationCheckUnavailableError();
    return this.checker.check(integration);
  }
}
