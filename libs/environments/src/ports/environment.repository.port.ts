import { ApiKey, Environment, Organization } from '../domain/environment';

export interface EnvironmentRepository {
  /** True for exactly one caller across all processes: the one that must create the first organization. */
  claimBootstrap(): Promise<boolean>;
  insertOrganization(organization: Organization): Promise<void>;
  listOrganizations(): Promise<Organization[]>;
  /** Inserts unless the organization already has an environment of that name; false then. */
  insertEnvironment(environment: Environment): Promise<boolean>;
  findEnvironment(id: string): Promise<Environment | null>;
  findEnvironmentByName(organizationId: string, name: string): Promise<Environment | null>;
  listEnvironments(organizationId?: string): Promise<Environment[]>;
  /** Inserts unless a key with that hash exists; false then. */
  insertApiKey(key: ApiKey): Promise<boolean>;
  findApiKeyByHash(hash: string): Promise<ApiKey | null>;
  listApiKeys(environmentId: string): Promise<ApiKey[]>;
}
export const ENVIRONMENT_REPOSITORY = Symbol('EnvironmentRepository');

/** Work other contexts do when an environment is born (e.g. its in-app integration). */
export interface EnvironmentProvisioner {
  provision(scope: { organizationId: string; environmentId: string }): Promise<void>;
}
export const ENVIRONMENT_PROVISIONER = Symbol('EnvironmentProvisioner');
