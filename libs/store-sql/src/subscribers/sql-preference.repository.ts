import { Inject, Injectable } from '@nestjs/common';
import { CallBatcher, Channel, EnvironmentScope } from '@app/kernel';
import { PreferenceChange, PreferenceRepository, SubscriberPreference } from '@app/subscribers';
import { SQL_CLIENT, SqlClient, textArray } from '../sql-client';

// The global record is stored under an empty workflow id: primary keys cannot hold NULL.
const GLOBAL = '';

const toPreference = (r: any): SubscriberPreference => ({
  organizationId: r.organization_id,
  environmentId: r.environment_id,
  subscriberId: r.subscriber_id,
  workflowId: r.workflow_id === GLOBAL ? null : r.workflow_id,
  channels: r.channels ?? {},
  ...(r.schedule ? { schedule: r.schedule } : {}),
  ...(typeof r.enabled === 'boolean' ? { enabled: r.enabled } : {}),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

@Injectable()
export class SqlPreferenceRepository implements PreferenceRepository {
  /** Grouped by environment and workflow: the delivery worker asks for many subscribers of one workflow at once. */
  private readonly forWorkflow = new CallBatcher<string, { global: SubscriberPreference | null; workflow: SubscriberPreference | null }>(
    async (group, subscriberIds) => {
      const [environmentId, organizationId, workflowId] = JSON.parse(group) as string[];
      const rows = await this.sql.query(
        `SELECT * FROM subscriber_preferences
         WHERE environment_id = $1 AND subscriber_id = ANY($2::text[]) AND organization_id = $3 AND workflow_id IN ($4, $5)`,
        [environmentId, textArray(subscriberIds), organizationId, GLOBAL, workflowId],
      );
      const records = rows.map(toPreference);
      return subscriberIds.map((subscriberId) => ({
        global: records.find((r) => r.subscriberId === subscriberId && r.workflowId === null) ?? null,
        workflow: records.find((r) => r.subscriberId === subscriberId && r.workflowId === workflowId) ?? null,
      }));
    },
  );

  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async upsert(scope: EnvironmentScope, change: PreferenceChange): Promise<SubscriberPreference> {
    // One statement: concurrent writers of different channels both land (jsonb `||` merges key by key).
    const [row] = await this.sql.query(
      `INSERT INTO subscriber_preferences (organization_id, environment_id, subscriber_id, workflow_id, channels, schedule, enabled, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $8, $7, $7)
       ON CONFLICT (environment_id, subscriber_id, workflow_id) DO UPDATE SET
         channels = subscriber_preferences.channels || EXCLUDED.channels,
         schedule = COALESCE(EXCLUDED.schedule, subscriber_preferences.schedule),
         enabled = COALESCE(EXCLUDED.enabled, subscriber_preferences.enabled),
         updated_at = EXCLUDED.updated_at
       RETURNING *`,
      [
        scope.organizationId,
        scope.environmentId,
        change.subscriberId,
        change.workflowId ?? GLOBAL,
        JSON.stringify(change.channels),
        change.schedule ? JSON.stringify(change.schedule) : null,
        change.at,
        change.enabled ?? null,
      ],
    );
    return toPreference(row);
  }

  async listForSubscriber(scope: EnvironmentScope, subscriberId: string): Promise<SubscriberPreference[]> {
    const rows = await this.sql.query(
      'SELECT * FROM subscriber_preferences WHERE environment_id = $1 AND subscriber_id = $2 AND organization_id = $3 ORDER BY workflow_id',
      [scope.environmentId, subscriberId, scope.organizationId],
    );
    return rows.map(toPreference);
  }

  findForWorkflow(scope: EnvironmentScope, subscriberId: string, workflowId: string) {
    return this.forWorkflow.run(JSON.stringify([scope.environmentId, scope.organizationId, workflowId]), subscriberId);
  }

  async removeWorkflowChannels(scope: EnvironmentScope, subscriberId: string, channels: Channel[]): Promise<void> {
    if (!channels.length) return;
    await this.sql.query(
      `UPDATE subscriber_preferences SET channels = channels - $4::text[]
       WHERE environment_id = $1 AND subscriber_id = $2 AND organization_id = $3 AND workflow_id <> $5 AND channels ?| $4::text[]`,
      [scope.environmentId, subscriberId, scope.organizationId, channels, GLOBAL],
    );
  }

  async deleteForSubscriber(scope: EnvironmentScope, subscriberId: string): Promise<void> {
    await this.sql.query('DELETE FROM subscriber_preferences WHERE environment_id = $1 AND subscriber_id = $2 AND organization_id = $3', [
      scope.environmentId,
      subscriberId,
      scope.organizationId,
    ]);
  }
}
