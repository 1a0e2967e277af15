import { ApiKey, Environment, EnvironmentChanges, EnvironmentRepository, Organization } from '@app/environments';
import { EnvironmentRecords, copy, deleteEnvironmentRecords, foreignKeyViolation, orderBy, stored, uniqueViolation } from './memory-records';

const byId = orderBy<{ id: string }>((row) => row.id);

/** EnvironmentRepository in memory: organizations, environments (unique name per organization), API keys (unique hash). */
export class InMemoryEnvironmentRepository implements EnvironmentRepository, EnvironmentRecords {
  private bootstrapClaimed = false;
  private readonly organizations = new Map<string, Organization>();
  private readonly environments = new Map<string, Environment>();
  private readonly apiKeys = new Map<string, ApiKey>();

  async claimBootstrap(): Promise<boolean> {
    if (this.bootstrapClaimed) return false;
    this.bootstrapClaimed = true;
    return true;
  }

  async insertOrganization(organization: Organization): Promise<void> {
    if (this.organizations.has(organization.id)) throw uniqueViolation('organizations');
    const { id, name, createdAt } = stored(organization);
    this.organizations.set(id, { id, name, createdAt });
  }

  async listOrganizations(): Promise<Organization[]> {
    return [...this.organizations.values()].sort(byId).map(copy);
  }

  async insertEnvironment(environment: Environment): Promise<boolean> {
    const { id, organizationId, name, identifier, inboxHmac, color, parentId, createdAt } = stored(environment);
    if ([...this.environments.values()].some((e) => e.organizationId === organizationId && e.name === name)) return false;
    if (this.environments.has(id) || [...this.environments.values()].some((e) => e.identifier === identifier)) throw uniqueViolation('environments');
    if (!this.organizations.has(organizationId)) throw foreignKeyViolation('environments');
    this.environments.set(id, { id, organizationId, name, identifier, inboxHmac, ...(color ? { color } : {}), ...(parentId ? { parentId } : {}), createdAt });
    return true;
  }

  async findEnvironment(id: string): Promise<Environment | null> {
    const environment = this.environments.get(id);
    return environment ? copy(environment) : null;
  }

  async findEnvironmentByName(organizationId: string, name: string): Promise<Environment | null> {
    const environment = [...this.environments.values()].find((e) => e.organizationId === organizationId && e.name === name);
    return environment ? copy(environment) : null;
  }

  async findEnvironmentByIdentifier(identifier: string): Promise<Environment | null> {
    const environment = [...this.environments.values()].find((e) => e.identifier === identifier);
    return environment ? copy(environment) : null;
  }

  async setInboxHmac(id: string, required: boolean): Promise<boolean> {
    const environment = this.environments.get(id);
    if (!environment) return false;
    environment.inboxHmac = required;
    return true;
  }

  async listEnvironments(organizationId?: string): Promise<Environment[]> {
    return [...this.environments.values()]
      .filter((e) => organizationId === undefined || e.organizationId === organizationId)
      .sort(byId)
      .map(copy);
  }

  async updateEnvironment(id: string, changes: EnvironmentChanges): Promise<'updated' | 'not_found' | 'name_taken'> {
    const environment = this.environments.get(id);
    if (!environment) return 'not_found';
    const given = stored(changes);
    const { name } = given;
    if (name !== undefined && [...this.environments.values()].some((e) => e.id !== id && e.organizationId === environment.organizationId && e.name === name)) {
      return 'name_taken';
    }
    if (name !== undefined) environment.name = name;
    if (given.color !== undefined) environment.color = given.color;
    if (given.parentId !== undefined) environment.parentId = given.parentId;
    return 'updated';
  }

  async deleteEnvironment(id: string): Promise<boolean> {
    if ([...this.apiKeys.values()].some((k) => k.environmentId === id)) throw foreignKeyViolation('api_keys');
    return this.environments.delete(id);
  }

  async insertApiKey(key: ApiKey): Promise<boolean> {
    const { id, organizationId, environmentId, hash, hint, sealedSecret, createdAt } = stored(key);
    if ([...this.apiKeys.values()].some((k) => k.hash === hash)) return false;
    if (this.apiKeys.has(id)) throw uniqueViolation('api_keys');
    if (!this.environments.has(environmentId)) throw foreignKeyViolation('api_keys');
    this.apiKeys.set(id, { id, organizationId, environmentId, hash, hint, ...(sealedSecret ? { sealedSecret } : {}), createdAt });
    return true;
  }

  async findApiKeyByHash(hash: string): Promise<ApiKey | null> {
    const key = [...this.apiKeys.values()].find((k) => k.hash === hash);
    return key ? copy(key) : null;
  }

  async listApiKeys(environmentId: string): Promise<ApiKey[]> {
    return [...this.apiKeys.values()]
      .filter((k) => k.environmentId === environmentId)
      .sort(byId)
      .map(copy);
  }

  async deleteApiKeys(environmentId: string): Promise<number> {
    return deleteEnvironmentRecords(this.apiKeys, environmentId);
  }

  purgeEnvironment(environmentId: string): number {
    return deleteEnvironmentRecords(this.apiKeys, environmentId);
  }
}
