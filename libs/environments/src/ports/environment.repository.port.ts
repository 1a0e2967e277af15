import { ApiKey, Environment, EnvironmentChanges, Organization } from '../domain/environment';

export interface EnvironmentRepository {
  /** True for exactly one caller across all processes: the one that must create the first organization. */
  claimBootstrap(): Promise<boolean>;
  insertOrganization(organization: Organization): Promise<void>;
  listOrganizations(): Promise<Organization[]>;
  /** Inserts unless the organization already has an environment of that name; false then. */
  insertEnvironment(environment: Environment): Promise<boolean>;
  findEnvironment(id: string): Promise<Environment | null>;
  findEnvironmentByName(organizationId: string, name: string): Promise<Environment | null>;
  /** By the public identifier (Inbox applicationIdentifier). */
  findEnvironmentByIdentifier(identifier: string): Promise<Environment | null>;
  /** Turns the Inbox HMAC requirement on or off; false when there is no such environment. */
  setInboxHmac(id: string, required: boolean): Promise<boolean>;
  listEnvironments(organizationId?: string): Promise<Environment[]>;
  /** Sets the given fields (`parentId: undefined` leaves the parent; there is no clearing it). */
  updateEnvironment(id: string, changes: EnvironmentChanges): Promise<'updated' | 'not_found' | 'name_taken'>;
  /** Removes the environment's row (its keys first, see deleteApiKeys); false when there was none. */
  deleteEnvironment(id: string): Promise<boolean>;
  /** Inserts unless a key with that hash exists; false then. */
  insertApiKey(key: ApiKey): Promise<boolean>;
  findApiKeyByHash(hash: string): Promise<ApiKey | null>;
  listApiKeys(environmentId: string): Promise<ApiKey[]>;
  /** Removes every key of the environment; how many there were. */
  deleteApiKeys(environmentId: string): Promise<number>;
}
export const ENVIRONMENT_REPOSITORY = Symbol('EnvironmentRepository');

/**
 * Removes every record the store holds for an environment in any context (subscribers, workflows,
 * deliveries, integrations, webhooks… and its API keys), leaving only the environment's own row. Each
 * adapter finds the records by their environment id in every table or collection it has, so a table
 * added later is covered without changing this port. Returns how many records it removed; running it
 * again removes what was written meanwhile.
 */
export interface EnvironmentDataPurger {
  purge(environmentId: string): Promise<number>;
}
export const ENVIRONMENT_DATA_PURGER = Symbol('EnvironmentDataPurger');

/** Work other contexts do when an environment is born (e.g. its in-app integration). */
export interface EnvironmentProvisioner {
  provision(scope: { organizationId: string; environmentId: string }): Promise<void>;
}
export const ENVIRONMENT_PROVISIONER = Symbol('EnvironmentProvisioner');

/** Seals API key secrets so the Inbox can check HMAC subscriber hashes with them (the store keeps only hashes otherwise). */
export interface ApiKeySealer {
  seal(secret: string): string;
  /** Throws when the sealed text was not made with this key. */
  open(sealed: string): string;
}
export const API_KEY_SEALER = Symbol('ApiKeySealer');
