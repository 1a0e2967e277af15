import { Channel, EnvironmentScope } from '@app/kernel';
import { PreferenceChange, PreferenceRepository, SubscriberPreference } from '@app/subscribers';
import { compareValues, copy, stored, EnvironmentRecords, deleteEnvironmentRecords } from './memory-records';

/** PreferenceRepository in memory: one record per (environment, subscriber, workflow or global). */
export class InMemoryPreferenceRepository implements PreferenceRepository, EnvironmentRecords {
  private readonly records = new Map<string, SubscriberPreference>();

  async upsert(scope: EnvironmentScope, change: PreferenceChange): Promise<SubscriberPreference> {
    const { subscriberId, workflowId, channels, schedule, enabled, at } = stored(change);
    const key = this.key(scope.environmentId, subscriberId, workflowId);
    const existing = this.records.get(key);
    if (existing) {
      // Merged key by key, as jsonb `||`.
      existing.channels = { ...existing.channels, ...channels };
      if (schedule) existing.schedule = schedule;
      if (enabled !== undefined) existing.enabled = enabled;
      existing.updatedAt = at;
      return copy(existing);
    }
    const record: SubscriberPreference = {
      organizationId: scope.organizationId,
      environmentId: scope.environmentId,
      subscriberId,
      // The SQL adapter keeps the global record under '': an empty workflow id reads back as global.
      workflowId: workflowId || null,
      channels,
      ...(schedule ? { schedule } : {}),
      ...(enabled !== undefined ? { enabled } : {}),
      createdAt: at,
      updatedAt: new Date(at),
    };
    this.records.set(key, record);
    return copy(record);
  }

  async listForSubscriber(scope: EnvironmentScope, subscriberId: string): Promise<SubscriberPreference[]> {
    // Ordered by workflow id, the global record (stored under '' in SQL) first.
    return this.ofSubscriber(scope, subscriberId)
      .sort((a, b) => compareValues(a.workflowId ?? '', b.workflowId ?? ''))
      .map(copy);
  }

  async findForWorkflow(
    scope: EnvironmentScope,
    subscriberId: string,
    workflowId: string,
  ): Promise<{ global: SubscriberPreference | null; workflow: SubscriberPreference | null }> {
    const records = this.ofSubscriber(scope, subscriberId);
    const global = records.find((r) => r.workflowId === null);
    const workflow = records.find((r) => r.workflowId === workflowId);
    return { global: global ? copy(global) : null, workflow: workflow ? copy(workflow) : null };
  }

  async removeWorkflowChannels(scope: EnvironmentScope, subscriberId: string, channels: Channel[]): Promise<void> {
    for (const record of this.ofSubscriber(scope, subscriberId)) {
      if (record.workflowId === null) continue;
      for (const channel of channels) delete record.channels[channel];
    }
  }

  async deleteForSubscriber(scope: EnvironmentScope, subscriberId: string): Promise<void> {
    for (const record of this.ofSubscriber(scope, subscriberId)) {
      this.records.delete(this.key(record.environmentId, record.subscriberId, record.workflowId));
    }
  }

  private key(environmentId: string, subscriberId: string, workflowId: string | null): string {
    return JSON.stringify([environmentId, subscriberId, workflowId ?? '']);
  }

  /** The SQL adapter reads by environment and organization both. */
  private ofSubscriber(scope: EnvironmentScope, subscriberId: string): SubscriberPreference[] {
    return [...this.records.values()].filter(
      (r) => r.environmentId === scope.environmentId && r.organizationId === scope.organizationId && r.subscriberId === subscriberId,
    );
  }

  purgeEnvironment(environmentId: string): number {
    return deleteEnvironmentRecords(this.records, environmentId);
  }
}
