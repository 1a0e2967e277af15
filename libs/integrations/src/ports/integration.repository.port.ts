import { Channel, EnvironmentScope } from '@app/kernel';
import { Integration } from '../domain/integration';
import { PriorityChange } from '../domain/primary-rules';

export interface ActiveIntegrationQuery {
  channel?: Channel;
  providerId?: string;
  identifier?: string;
}

/** Why an insert was refused. */
export type InsertIntegrationResult = 'inserted' | 'identifier_taken' | 'in_app_taken';
/** Outcome of a compare-and-set update. */
export type ReplaceIntegrationResult = 'updated' | 'stale' | 'identifier_taken';

/**
 * Integrations of one environment (soft-deleted ones are never returned by queries). Credentials
 * are plain in and out of this port; the adapter encrypts them at rest.
 */
export interface IntegrationRepository {
  /** Active, not deleted, newest first. */
  findActive(scope: EnvironmentScope, query: ActiveIntegrationQuery): Promise<Integration[]>;
  /**
   * Inserts unless the environment already has a live integration with that identifier, or the
   * integration is a second in-app `novu` of the environment (both held by unique indexes).
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
  /** Sets primary flag and priority of live integrations, one conditional statement each. */
  setPriorities(scope: EnvironmentScope, changes: PriorityChange[]): Promise<void>;
  /** Marks a live integration deleted; false when there is none with that id. */
  softDelete(scope: EnvironmentScope, id: string, deletion: { deletedAt: Date; deletedBy: string }): Promise<boolean>;
}
export const INTEGRATION_REPOSITORY = Symbol('IntegrationRepository');
