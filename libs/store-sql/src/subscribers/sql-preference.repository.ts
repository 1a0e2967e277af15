import { Inject, Injectable } from '@nestjs/common';
import { CallBatcher, Channel, EnvironmentScope } from '@app/kernel';
import { PreferenceChange, PreferenceRepository, SubscriberPreference } from '@app/subscribers';
import { SQL_CLIENT, SqlClient, textArray } from '../sql-client';
import { sql } from '../sql-statement';
import { NewRow, insertInto } from '../sql-table';
import { SubscriberPreferenceRow, subscriberPreferences } from '../tables';

// The global record is stored under an empty workflow id: primary keys cannot hold NULL.
const GLOBAL = '';

const toPreference = (r: SubscriberPreferenceRow): SubscriberPreference => ({
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
      const rows = await this.sql.query<SubscriberPreferenceRow>(
        sql`SELECT * FROM subscriber_preferences
            WHERE environment_id = ${environmentId} AND subscriber_id = ANY(${textArray(subscriberIds)}::text[]) AND organization_id = ${organizationId}
              AND workflow_id IN (${GLOBAL}, ${workflowId})`,
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
    const row: NewRow<typeof subscriberPreferences> = {
      organization_id: scope.organizationId,
      environment_id: scope.environmentId,
      subscriber_id: change.subscriberId,
      workflow_id: change.workflowId ?? GLOBAL,
      channels: change.channels,
      schedule: change.schedule ?? null,
      enabled: change.enabled ?? null,
      created_at: change.at,
      updated_at: change.at,
    };
    const [stored] = await this.sql.query<SubscriberPreferenceRow>(
      sql`${insertInto(subscriberPreferences, [row])}
          ON CONFLICT (environment_id, subscriber_id, workflow_id) DO UPDATE SET
            channels = subscriber_preferences.channels || EXCLUDED.channels,
            schedule = COALESCE(EXCLUDED.schedule, subscriber_preferences.schedule),
            enabled = COALESCE(EXCLUDED.enabled, subscriber_preferences.enabled),
            updated_at = EXCLUDED.updated_at
          RETURNING *`,
    );
    return toPreference(stored);
  }

  async listForSubscriber(scope: EnvironmentScope, subscriberId: string): Promise<SubscriberPreference[]> {
    const rows = await this.sql.query<SubscriberPreferenceRow>(
      sql`SELECT * FROM subscriber_preferences
          WHERE environment_id = ${scope.environmentId} AND subscriber_id = ${subscriberId} AND organization_id = ${scope.organizationId} ORDER BY workflow_id`,
    );
    return rows.map(toPreference);
  }

  findForWorkflow(scope: EnvironmentScope, subscriberId: string, workflowId: string) {
    return this.forWorkflow.run(JSON.stringify([scope.environmentId, scope.organizationId, workflowId]), subscriberId);
  }

  async removeWorkflowChannels(scope: EnvironmentScope, subscriberId: string, channels: Channel[]): Promise<void> {
    if (!channels.length) return;
    await this.sql.query(
      sql`UPDATE subscriber_preferences SET channels = channels - ${channels}::text[]
          WHERE environment_id = ${scope.environmentId} AND subscriber_id = ${subscriberId} AND organization_id = ${scope.organizationId}
            AND workflow_id <> ${GLOBAL} AND channels ?| ${channels}::text[]`,
    );
  }

  async deleteForSubscriber(scope: EnvironmentScope, subscriberId: string): Promise<void> {
    await this.sql.query(
      sql`DELETE FROM subscriber_preferences WHERE environment_id = ${scope.environmentId} AND subscriber_id = ${subscriberId} AND organization_id = ${scope.organizationId}`,
    );
  }
}
