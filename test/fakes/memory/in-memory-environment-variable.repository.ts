import {
  EnvironmentValue,
  EnvironmentVariable,
  EnvironmentVariableChanges,
  EnvironmentVariableRepository,
  EnvironmentVariableUpdateResult,
} from '@app/environments';
import { EnvironmentRecords, compareValues, containsIgnoringCase, copy, orderBy, stored, uniqueViolation } from './memory-records';

/** EnvironmentVariableRepository in memory: one variable per (organization, key), its values by environment. */
export class InMemoryEnvironmentVariableRepository implements EnvironmentVariableRepository, EnvironmentRecords {
  private readonly rows = new Map<string, EnvironmentVariable>();

  async insert(variable: EnvironmentVariable): Promise<boolean> {
    const given = stored(variable);
    if (this.find(given.organizationId, given.key)) return false;
    if (this.rows.has(given.id)) throw uniqueViolation('environment_variables');
    this.rows.set(given.id, given);
    return true;
  }

  async findByKey(organizationId: string, key: string): Promise<EnvironmentVariable | null> {
    const variable = this.find(organizationId, key);
    return variable ? copy(variable) : null;
  }

  async list(organizationId: string, search?: string): Promise<EnvironmentVariable[]> {
    const newestFirst = orderBy<EnvironmentVariable>(
      (v) => v.createdAt,
      (v) => v.id,
    );
    return [...this.rows.values()]
      .filter((v) => v.organizationId === organizationId && (!search || containsIgnoringCase(v.key, search)))
      .sort((a, b) => newestFirst(b, a))
      .map(copy);
  }

  async update(organizationId: string, key: string, changes: EnvironmentVariableChanges, updatedAt: Date): Promise<EnvironmentVariableUpdateResult> {
    const kept = stored(changes);
    const variable = this.find(organizationId, key);
    if (!variable) return { status: 'not_found' };
    if (kept.key !== undefined && kept.key !== variable.key && this.find(organizationId, kept.key)) return { status: 'key_taken' };
    if (kept.key !== undefined) variable.key = kept.key;
    if (kept.type !== undefined) variable.type = kept.type;
    if (kept.isSecret !== undefined) variable.isSecret = kept.isSecret;
    Object.assign(variable.values, kept.values ?? {});
    variable.updatedAt = new Date(updatedAt);
    return { status: 'updated', variable: copy(variable) };
  }

  async delete(organizationId: string, key: string): Promise<boolean> {
    const variable = this.find(organizationId, key);
    return variable ? this.rows.delete(variable.id) : false;
  }

  async valuesFor(organizationId: string, environmentId: string): Promise<EnvironmentValue[]> {
    return [...this.rows.values()]
      .filter((v) => v.organizationId === organizationId && environmentId in v.values)
      .sort((a, b) => compareValues(a.key, b.key))
      .map((v) => ({ key: v.key, value: v.values[environmentId], isSecret: v.isSecret }));
  }

  private find(organizationId: string, key: string): EnvironmentVariable | undefined {
    return [...this.rows.values()].find((v) => v.organizationId === organizationId && v.key === key);
  }

  /** A variable belongs to the organization: only its value of the environment goes. */
  purgeEnvironment(environmentId: string): number {
    let removed = 0;
    for (const variable of this.rows.values()) {
      if (environmentId in variable.values && delete variable.values[environmentId]) removed++;
    }
    return removed;
  }
}
