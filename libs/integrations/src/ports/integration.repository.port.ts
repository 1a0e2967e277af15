import { Channel, EnvironmentScope } from '@app/kernel';
import { Integration } from '../domain/integration';
import { PriorityChange, RankedIntegration } from '../domain/primary-rules';

export interface ActiveIntegrationQuery {
  channel?: Channel;
  providerId?: string;
  identifier?: string;
}

/** Why an insert was refused. */
export type InsertIntegrationResult = 'inserted' | 'identifier_taken' | 'in_app_taken';
/** Outcome of a compare-and-set update. */
export type ReplaceIntegrationResult = 'updated' | 'stale' | 'identifier_taken';
/** Outcome of a ranking write: written, or refused because the channel is no longer as expected. */
export type RankIntegrationsResult = 'ranked' | 'stale';

/**
 * Integrations of one environment (soft-deleted ones are never returned by queries). Credentials
 * are plain in and out of this port; the adapter encrypts them at rest.
 */
export interface IntegrationRepository {
  /** Active, not deleted, newest first. */
  findActive(scope: EnvironmentScope, query: ActiveIntegrationQuery): Promise<Integration[]>;
  /**
   * Inserts unless the environment already has a live integration with that identifier, or the
   * integration is a second in-app `novu` of the environment (both held by unique indexes). An
   * active integration is inserted with priority 0 and then ranked (`rank`).
   */
  insert(integration: Integration): Promise<InsertIntegrationResult>;
  findById(scope: EnvironmentScope, id: string): Promise<Integration | null>;
  /** Not deleted, oldest first. */
  list(scope: EnvironmentScope): Promise<Integration[]>;
  /** Active and not deleted, across every environment of the organization, oldest first. */
  listActiveInOrganization(organizationId: string): Promise<Integration[]>;
  /**
   * Writes every field of `integration` if the stored one still has `expectedUpdatedAt` and is not
   * deleted ('stale' otherwise); 'identifier_taken' when its identifier is in use in the environment.
   */
  replace(scope: EnvironmentScope, integration: Integration, expectedUpdatedAt: Date): Promise<ReplaceIntegrationResult>;
  /**
   * Writes new primary flags, priorities and updatedAt of a channel's active integrations as one
   * atomic write (compare-and-set on the whole channel), only if its active integrations are still
   * exactly `expected` (the same ids, each with the same primary flag, priority and updatedAt);
   * 'stale' otherwise, and nothing written. The store never holds two active integrations of one
   * channel of an environment with the same priority above 0: a write that would leave them is
   * refused ('stale' here).
   */
  rank(scope: EnvironmentScope, channel: Channel, expected: RankedIntegration[], changes: PriorityChange[]): Promise<RankIntegrationsResult>;
  /** Marks a live integration deleted; false when there is none with that id. */
  softDelete(scope: EnvironmentScope, id: string, deletion: { deletedAt: Date; deletedBy: string }): Promise<boolean>;
}
export const INTEGRATION_REPOSITORY = Symbol('IntegrationRepository');
