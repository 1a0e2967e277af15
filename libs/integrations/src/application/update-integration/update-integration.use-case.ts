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
import { Integration, IntegrationConfigurations, IntegrationCredentials } from '../../domain/integration';
import { assertCredentialsForActive, normalizeConditions, toRanked, validateFallbacks } from '../../domain/integration-validation';
import { PriorityChange, channelHasPrimary, placeOnActivation, placeOnDeactivation, primaryAfterConditions } from '../../domain/primary-rules';
import { renumberChannel } from '../renumber-channel';
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

      const { next, priorityChanges, renumber } = await this.apply(existing, command);
      const result = await this.integrations.replace(scope, next, existing.updatedAt);
      if (result === 'stale') continue;
      if (result === 'identifier_taken') throw new IntegrationIdentifierTakenError(next.identifier);

      await this.integrations.setPriorities(scope, priorityChanges);
      if (!renumber) return next;
      const own = (await renumberChannel(this.integrations, scope, next.channel)).find((change) => change.id === next.id);
      return own ? { ...next, primary: own.primary, priority: own.priority } : next;
    }
    throw new IntegrationUpdateConflictError(id);
  }

  private async apply(
    existing: Integration,
    { scope, changes, check }: UpdateIntegrationCommand,
  ): Promise<{ next: Integration; priorityChanges: PriorityChange[]; renumber: boolean }> {
    const now = this.clock.now();
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
      // Strictly later than what was read, so the compare-and-set always sees the change.
      updatedAt: new Date(Math.max(now.getTime(), existing.updatedAt.getTime() + 1)),
    };

    const provider = findProvider(existing.providerId);
    if (provider && next.active && (changes.active !== undefined || changes.credentials !== undefined)) {
      assertCredentialsForActive(provider, next.credentials);
    }
    if (check) {
      const result = await this.runCheck(next);
      if (!result.ok) throw new IntegrationCheckFailedError(result.message ?? `The ${existing.providerId} integration check failed`);
    }

    let priorityChanges: PriorityChange[] = [];
    let renumber = false;
    if (channelHasPrimary(next.channel)) {
      if (next.active && !existing.active) {
        const activeOthers = (await this.integrations.findActive(scope, { channel: next.channel })).filter((i) => i.id !== next.id);
        const placement = placeOnActivation(next.channel, existing.primary, activeOthers.map(toRanked));
        next.primary = placement.primary;
        next.priority = placement.priority;
        priorityChanges = placement.changes;
        renumber = true;
      } else if (!next.active && existing.active) {
        const placement = placeOnDeactivation();
        next.primary = placement.primary;
        next.priority = placement.priority;
        renumber = true;
      }
      const primary = primaryAfterConditions(next.primary, next.conditions.length);
      if (primary !== next.primary) {
        next.primary = primary;
        renumber = renumber || next.active;
      }
    }
    return { next, priorityChanges, renumber };
  }

  private runCheck(integration: Integration) {
    if (!this.checker) throw new IntegrationCheckUnavailableError();
    return this.checker.check(integration);
  }
}
