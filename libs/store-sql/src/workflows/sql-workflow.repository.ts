import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, Page } from '@app/kernel';
import { Workflow, WorkflowRepository, WorkflowSearch, WorkflowUpdateResult } from '@app/workflows';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { Sql, empty, join, raw, sql } from '../sql-statement';
import { assignments, insertInto } from '../sql-table';
import { WorkflowDocument, WorkflowRow, workflows } from '../tables';
import { escapeLike } from '../subscribers/sql-cursor-page';

/** Fields of the document that are JSON as they are, and absent when unset. */
const OPTIONAL_FIELDS = ['data', 'origin', 'payloadSchema', 'validatePayload', 'severity', 'isTranslationEnabled', 'preferences'] as const;
type OptionalFields = Pick<Workflow, (typeof OPTIONAL_FIELDS)[number]>;

function optionalFields(source: OptionalFields): OptionalFields {
  return Object.fromEntries(OPTIONAL_FIELDS.filter((field) => source[field] !== undefined).map((field) => [field, source[field]]));
}

const toDocument = (w: Workflow): WorkflowDocument => ({
  creatorId: w.creatorId,
  description: w.description,
  draft: w.draft,
  preferenceSettings: w.preferenceSettings,
  tags: w.tags,
  steps: w.steps,
  trigger: w.trigger,
  notificationGroupId: w.notificationGroupId,
  ...optionalFields(w),
  ...(w.lastPublishedAt ? { lastPublishedAt: w.lastPublishedAt.toISOString(), lastPublishedBy: w.lastPublishedBy } : {}),
});

const toWorkflow = (r: WorkflowRow): Workflow => {
  const d = r.document;
  return {
    id: r.id,
    organizationId: r.organization_id,
    environmentId: r.environment_id,
    creatorId: d.creatorId,
    name: r.name,
    description: d.description,
    active: r.active,
    draft: d.draft,
    critical: r.critical,
    preferenceSettings: d.preferenceSettings,
    tags: d.tags,
    steps: d.steps,
    trigger: { ...d.trigger, identifier: r.trigger_identifier },
    notificationGroupId: d.notificationGroupId,
    ...optionalFields(d),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    revision: r.revision,
    ...(r.deleted_at ? { deletedAt: r.deleted_at, deletedBy: r.deleted_by ?? undefined } : {}),
    ...(d.lastPublishedAt ? { lastPublishedAt: new Date(d.lastPublishedAt), ...(d.lastPublishedBy ? { lastPublishedBy: d.lastPublishedBy } : {}) } : {}),
  };
};

const UNIQUE_VIOLATION = '23505';

/** The columns a save writes. */
const written = (w: Workflow) => ({
  trigger_identifier: w.trigger.identifier,
  name: w.name,
  active: w.active,
  critical: w.critical,
  revision: w.revision,
  document: toDocument(w),
  updated_at: w.updatedAt,
});

/** The live workflow `id` of the scope. */
const live = (scope: EnvironmentScope, id: string) =>
  sql`id = ${id} AND organization_id = ${scope.organizationId} AND environment_id = ${scope.environmentId} AND deleted_at IS NULL`;

@Injectable()
export class SqlWorkflowRepository implements WorkflowRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async insert(w: Workflow): Promise<boolean> {
    const row = { id: w.id, organization_id: w.organizationId, environment_id: w.environmentId, ...written(w), created_at: w.createdAt };
    const rows = await this.sql.query(
      sql`${insertInto(workflows, [row])}
          ON CONFLICT (environment_id, trigger_identifier) WHERE deleted_at IS NULL DO NOTHING
          RETURNING id`,
    );
    return rows.length === 1;
  }

  async update(w: Workflow, expectedRevision: number): Promise<WorkflowUpdateResult> {
    try {
      const rows = await this.sql.query(
        sql`UPDATE workflows SET ${assignments(workflows, written(w))} WHERE ${live(w, w.id)} AND revision = ${expectedRevision} RETURNING id`,
      );
      if (rows.length === 1) return 'updated';
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return 'identifier_taken';
      throw error;
    }
    const found = await this.findById(w, w.id);
    return found ? 'stale' : 'not_found';
  }

  async findById(scope: EnvironmentScope, id: string): Promise<Workflow | null> {
    const [row] = await this.sql.query<WorkflowRow>(sql`SELECT * FROM workflows WHERE ${live(scope, id)}`);
    return row ? toWorkflow(row) : null;
  }

  async findByIdIncludingDeleted(scope: EnvironmentScope, id: string): Promise<Workflow | null> {
    const [row] = await this.sql.query<WorkflowRow>(
      sql`SELECT * FROM workflows WHERE id = ${id} AND organization_id = ${scope.organizationId} AND environment_id = ${scope.environmentId}`,
    );
    return row ? toWorkflow(row) : null;
  }

  async findByTriggerIdentifier(scope: EnvironmentScope, identifier: string): Promise<Workflow | null> {
    const [row] = await this.sql.query<WorkflowRow>(
      sql`SELECT * FROM workflows
          WHERE environment_id = ${scope.environmentId} AND trigger_identifier = ${identifier} AND deleted_at IS NULL AND organization_id = ${scope.organizationId}`,
    );
    return row ? toWorkflow(row) : null;
  }

  async findByIdOrIdentifier(scope: EnvironmentScope, idOrIdentifier: string): Promise<Workflow | null> {
    const rows = await this.sql.query<WorkflowRow>(
      sql`SELECT * FROM workflows
          WHERE environment_id = ${scope.environmentId} AND organization_id = ${scope.organizationId} AND deleted_at IS NULL
            AND (id = ${idOrIdentifier} OR trigger_identifier = ${idOrIdentifier})
          ORDER BY (id = ${idOrIdentifier}) DESC LIMIT 1`,
    );
    return rows[0] ? toWorkflow(rows[0]) : null;
  }

  async search(scope: EnvironmentScope, search: WorkflowSearch): Promise<Page<Workflow>> {
    const { page, limit, query, tags, active } = search;
    const where: Sql[] = [sql`environment_id = ${scope.environmentId} AND organization_id = ${scope.organizationId} AND deleted_at IS NULL`];
    if (query) {
      const pattern = `%${escapeLike(query)}%`;
      where.push(sql`(name ILIKE ${pattern} OR trigger_identifier ILIKE ${pattern})`);
    }
    if (tags?.length) where.push(sql`document->'tags' ?| ${tags}::text[]`);
    if (active !== undefined) where.push(sql`active = ${active}`);
    const filter = join(where, ' AND ');
    const column = { createdAt: 'created_at', updatedAt: 'updated_at', name: 'name' }[search.orderBy ?? 'createdAt'];
    const direction = raw(search.orderDirection === 'asc' ? 'ASC' : 'DESC');
    // Names compare byte by byte, as MongoDB and the in-memory store compare them.
    const sortKey = raw(column === 'name' ? 'name COLLATE "C"' : column);
    const [{ count }] = await this.sql.query<{ count: number }>(sql`SELECT COUNT(*)::int AS count FROM workflows WHERE ${filter}`);
    const rows = await this.sql.query<WorkflowRow>(
      sql`SELECT * FROM workflows WHERE ${filter} ORDER BY ${sortKey} ${direction}, id ${direction} LIMIT ${limit} OFFSET ${search.offset ?? page * limit}`,
    );
    return { items: rows.map(toWorkflow), totalCount: Number(count) };
  }

  async listActive(scope: EnvironmentScope, filter: { critical?: boolean } = {}): Promise<Workflow[]> {
    const critical = filter.critical !== undefined ? sql` AND critical = ${filter.critical}` : empty;
    const rows = await this.sql.query<WorkflowRow>(
      sql`SELECT * FROM workflows
          WHERE environment_id = ${scope.environmentId} AND organization_id = ${scope.organizationId} AND deleted_at IS NULL AND active${critical}
          ORDER BY created_at, id`,
    );
    return rows.map(toWorkflow);
  }

  async softDelete(scope: EnvironmentScope, id: string, deletedBy: string, deletedAt: Date): Promise<boolean> {
    const rows = await this.sql.query(
      sql`UPDATE workflows SET deleted_at = ${deletedAt}, deleted_by = ${deletedBy}, revision = revision + 1 WHERE ${live(scope, id)} RETURNING id`,
    );
    return rows.length === 1;
  }
}
