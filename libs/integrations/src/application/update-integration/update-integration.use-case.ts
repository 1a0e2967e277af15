import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, Clock, Condition, EnvironmentScope, isId } from '@app/kernel';
import { mergeConfigurations, mergeCredentials } from '../../domain/secrets';
import {
  EnvironmentMismatchError,
  IntegrationCheckFailedError,
  IntegrationCheckUnavailableError,
  IntegrationIdentifierTakenError,
  IntegrationNotFoundError,
  IntegrationUpdateConflictError,
  NoPropertiesToUpdateError,
} from '../../domain/errors';
import { IntegrationRateLimit, validateDeliveryLimits } from '../../domain/delivery-limits';
import { Integration, IntegrationConfigurations, IntegrationCredentials } from '../../domain/integration';
import { assertCredentialsForActive, normalizeConditions, validateFallbacks } from '../../domain/integration-validation';
import { RankingEvent, channelHasPrimary, nextUpdatedAt, primaryAfterConditions } from '../../domain/primary-rules';
import { rankChannelInStore } from '../rank-channel';
import { findProvider } from '../../domain/provider-catalogue';
import { INTEGRATION_CHECKER, IntegrationChecker } from '../../ports/integration-checker.port';
import { INTEGRATION_REPOSITORY, IntegrationRepository } from '../../ports/integration.repository.port';

/** Fields an update may change; those left undefined stay as they are. */
export interface IntegrationChanges {
  name?: string;
  identifier?: string;
  active?: boolean;
  /** Merged into the stored credentials: `null` removes a key, a masked secret sent back keeps it. */
  credentials?: Record<string, IntegrationCredentials[string] | null>;
  conditions?: Condition[];
  configurations?: IntegrationConfigurations;
  /** Replaces the list; [] removes every fallback. */
  fallbacks?: string[];
  /** `null` goes back to the provider's default. */
  rateLimit?: IntegrationRateLimit | null;
  /** `null` goes back to the provider's default. */
  maxConcurrency?: number | null;
}

export interface UpdateIntegrationCommand {
  scope: EnvironmentScope;
  id: string;
  changes: IntegrationChanges;
  environmentId?: string;
  check?: boolean;
}

/** Compare-and-set retries before telling the caller another request keeps winning. */
const MAX_ATTEMPTS = 5;

@Injectable()
export class UpdateIntegration {
  constructor(
    @Inject(INTEGRATION_REPOSITORY) private readonly integrations: IntegrationRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    // A process without provider adapters (the CLI) cannot check; asking it to is an error, not a no-op.
    @Optional() @Inject(INTEGRATION_CHECKER) private readonly checker?: IntegrationChecker,
  ) {}

  async execute(command: UpdateIntegrationCommand): Promise<Integration> {
    const { scope, id, changes } = command;
    if (!isId(id)) throw new IntegrationNotFoundError(id);
    if (command.environmentId !== undefined && command.environmentId !== scope.environmentId) throw new EnvironmentMismatchError();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const existing = await this.integrations.findById(scope, id);
      if (!existing) throw new IntegrationNotFoundError(id);
      if (Object.values(changes).every((value) => value === undefined)) {
        // As Novu: the environment alone is a change of nothing (it can only name the key's own), answered with the integration.
        if (command.environmentId !== undefined) return existing;
        throw new NoPropertiesToUpdateError();
      }

      const { next, ranking } = await this.apply(existing, command);
      const result = await this.integrations.replace(scope, next, existing.updatedAt);
      if (result === 'stale') continue;
      if (result === 'identifier_taken') throw new IntegrationIdentifierTakenError(next.identifier);

      if (!ranking) return next;
      const own = (await rankChannelInStore(this.integrations, this.clock, scope, next.channel, ranking, id)).find((ranked) => ranked.id === id);
      return own ? { ...next, primary: own.primary, priority: own.priority, updatedAt: own.updatedAt } : next;
    }
    throw new IntegrationUpdateConflictError(id);
  }

  private async apply(existing: Integration, { scope, changes, check }: UpdateIntegrationCommand): Promise<{ next: Integration; ranking?: RankingEvent }> {
    const now = this.clock.now();
    const limits = validateDeliveryLimits(changes);
    const next: Integration = {
      ...existing,
      name: changes.name ?? existing.name,
      identifier: changes.identifier ?? existing.identifier,
      active: changes.active ?? existing.active,
      credentials: changes.credentials ? mergeCredentials(existing.credentials, changes.credentials) : existing.credentials,
      conditions: changes.conditions ? normalizeConditions(changes.conditions) : existing.conditions,
      configurations: changes.configurations ? mergeConfigurations(existing.configurations, changes.configurations) : existing.configurations,
      fallbacks: changes.fallbacks
        ? validateFallbacks(
            changes.fallbacks,
            { identifier: changes.identifier ?? existing.identifier, channel: existing.channel },
            await this.integrations.list(scope),
          )
        : existing.fallbacks,
      updatedAt: nextUpdatedAt(now, existing.updatedAt),
    };
    if (changes.rateLimit !== undefined) next.rateLimit = limits.rateLimit;
    if (changes.maxConcurrency !== undefined) next.maxConcurrency = limits.maxConcurrency;

    const provider = findProvider(existing.providerId);
    if (provider && next.active && (changes.active !== undefined || changes.credentials !== undefined)) {
      assertCredentialsForActive(provider, next.credentials);
    }
    if (check) {
      const result = await this.runCheck(next);
      if (!result.ok) throw new IntegrationCheckFailedError(result.message ?? `The ${existing.providerId} integration check failed`);
    }

    // Becoming active or inactive, or a primary given conditions, ranks the channel again once written.
    let ranking: RankingEvent | undefined;
    if (channelHasPrimary(next.channel)) {
      if (next.active && !existing.active) {
        // Back unranked (priority 0), then placed as a new one is; its primary flag is left as is.
        next.priority = 0;
        ranking = { kind: 'placed', id: next.id, mayBecomePrimary: false };
      } else if (!next.active && existing.active) {
        next.primary = false;
        next.priority = 0;
        ranking = { kind: 'renumber' };
      }
      const primary = primaryAfterConditions(next.primary, next.conditions.length);
      if (primary !== next.primary) {
        next.primary = primary;
        if (next.active) ranking ??= { kind: 'renumber' };
      }
    }
    return { next, ranking };
  }

  private runCheck(integration: Integration) {
    if (!this.checker) throw new IntegrationCheckUnavailableError();
    return this.checker.check(integration);
  }
}
