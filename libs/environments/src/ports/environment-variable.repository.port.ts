import { EnvironmentValue, EnvironmentVariable, EnvironmentVariableChanges } from '../domain/environment-variable';

export type EnvironmentVariableUpdateResult = { status: 'updated'; variable: EnvironmentVariable } | { status: 'not_found' } | { status: 'key_taken' };

/**
 * The environment variables of an organization, one per key, each holding a value per environment.
 * Each method is one atomic write or read, so the contract holds on every store; values are
 * encrypted at rest by the adapters (CredentialCipher), never by the caller.
 */
export interface EnvironmentVariableRepository {
  /** Inserts unless the organization has a variable with that key; false then. */
  insert(variable: EnvironmentVariable): Promise<boolean>;
  findByKey(organizationId: string, key: string): Promise<EnvironmentVariable | null>;
  /** Newest first; `search`: a case-insensitive substring of the key. */
  list(organizationId: string, search?: string): Promise<EnvironmentVariable[]>;
  /** Sets the given fields, merges `values` into the stored ones by environment, moves updatedAt. */
  update(organizationId: string, key: string, changes: EnvironmentVariableChanges, updatedAt: Date): Promise<EnvironmentVariableUpdateResult>;
  /** False when there was no such variable. */
  delete(organizationId: string, key: string): Promise<boolean>;
  /** Every variable that has a value in the environment, with that value: what rendering reads. */
  valuesFor(organizationId: string, environmentId: string): Promise<EnvironmentValue[]>;
}
export const ENVIRONMENT_VARIABLE_REPOSITORY = Symbol('EnvironmentVariableRepository');
