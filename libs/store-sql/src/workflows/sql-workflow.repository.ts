import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, Page } from '@app/kernel';
import { Workflow, WorkflowRepository, WorkflowSearch, WorkflowUpdateResult } from '@app/workflows';
import { SQL_CLIENT, SqlClient } from '../sql-client';

/** Fields of the document that are JSON as they are, and absent when unset. */
const OPTIONAL_FIELDS = ['data', 'origin', 'payloadSchema', 'validatePayload', 'severity', 'isTranslationEnabled', 'preferences'] as const;
type OptionalFields = Pick<Workflow, (typeof OPTIONAL_FIELDS)[number]>;

function optionalFields(source: OptionalFields): OptionalFields {
  return Object.fromEntries(OPTIONAL_FIELDS.filter((field) => source[field] !== undefined).map((field) => [field, source[field]]));
}

// Columns hold what queries filter on; the document holds the rest of the aggregate.
export type WorkflowDocument = OptionalFields &
  Pick<
    Workflow,
    'creatorId' | 'description' | 'draft' | 'preferenceSettings' | 'tags' | 'steps' | 'trigger' | 'notificationGroupId' | 'data' | 'lastPublishedBy'
  > & { lastPublishedAt?: string };

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

const toWorkflow = (r: any): Workflow => {
  const d: WorkflowDocument = r.document;
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
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

@Injectable()
export class SqlWorkflowRepository implements WorkflowRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async insert(w: Workflow): Promise<boolean> {
    const rows = await this.sql.query(
      `INSERT INTO workflows (id, organization_id, environment_id, trigger_identifier, name, active, critical, revision, document, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11)
       ON CONFLICT (environment_id, trigger_identifier) WHERE deleted_at IS NULL DO NOTHING
       RETURNING id`,
      [
        w.id,
        w.organizationId,
        w.environmentId,
        w.trigger.identifier,
        w.name,
        w.active,
        w.critical,
        w.revision,
        JSON.stringify(toDocument(w)),
        w.createdAt,
        w.updatedAt,
      ],
    );
    return rows.length === 1;
  }

  async update(w: Workflow, expectedRevision: number): Promise<WorkflowUpdateResult> {
    try {
      const rows = await this.sql.query(
        `UPDATE workflows SET trigger_identifier = $4, name = $5, active = $6, critical = $7, revision = $8, document = $9::jsonb, updated_at = $10
         WHERE id = $1 AND organization_id = $2 AND environment_id = $3 AND deleted_at IS NULL AND revision = $11
         RETURNING id`,
        [
          w.id,
          w.organizationId,
          w.environmentId,
          w.trigger.identifier,
          w.name,
          w.active,
          w.critical,
          w.revision,
          JSON.stringify(toDocument(w)),
          w.updatedAt,
          expectedRevision,
        ],
      );
      if (rows.length === 1) return 'updated';
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return 'identifier_taken';
      throw error;
    }
    const live = await this.findById(w, w.id);
    return live ? 'stale' : 'not_found';
  }

  async findById(scope: EnvironmentScope, id: string): Promise<Workflow | null> {
    const [row] = await this.sql.query('SELECT * FROM workflows WHERE id = $1 AND organization_id = $2 AND environment_id = $3 AND deleted_at IS NULL', [
      id,
      scope.organizationId,
      scope.environmentId,
    ]);
    return row ? toWorkflow(row) : null;
  }

  async findByIdIncludingDeleted(scope: EnvironmentScope, id: string): Promise<Workflow | null> {
    const [row] = await this.sql.query('SELECT * FROM workflows WHERE id = $1 AND organization_id = $2 AND environment_id = $3', [
      id,
      scope.organizationId,
      scope.environmentId,
    ]);
    return row ? toWorkflow(row) : null;
  }

  async findByTriggerIdentifier(scope: EnvironmentScope, identifier: string): Promise<Workflow | null> {
    const [row] = await this.sql.query(
      'SELECT * FROM workflows WHERE environment_id = $1 AND trigger_identifier = $2 AND deleted_at IS NULL AND organization_id = $3',
      [scope.environmentId, identifier, scope.organizationId],
    );
    return row ? toWorkflow(row) : null;
  }

  async findByIdOrIdentifier(scope: EnvironmentScope, idOrIdentifier: string): Promise<Workflow | null> {
    const rows = await this.sql.query(
      `SELECT * FROM workflows
       WHERE environment_id = $1 AND organization_id = $2 AND deleted_at IS NULL AND (id = $3 OR trigger_identifier = $3)
       ORDER BY (id = $3) DESC LIMIT 1`,
      [scope.environmentId, scope.organizationId, idOrIdentifier],
    );
    return rows[0] ? toWorkflow(rows[0]) : null;
  }

  async search(scope: EnvironmentScope, search: WorkflowSearch): Promise<Page<Workflow>> {
    const { page, limit, query, tags, active } = search;
    const params: unknown[] = [scope.environmentId, scope.organizationId];
    let where = 'environment_id = $1 AND organization_id = $2 AND deleted_at IS NULL';
    if (query) {
      params.push(`%${escapeLike(query)}%`);
      where += ` AND (name ILIKE $${params.length} OR trigger_identifier ILIKE $${params.length})`;
    }
    if (tags?.length) {
      params.push(tags);
      where += ` AND document->'tags' ?| $${params.length}::text[]`;
    }
    if (active !== undefined) {
      params.push(active);
      where += ` AND active = $${params.length}`;
    }
    const column = { createdAt: 'created_at', updatedAt: 'updated_at', name: 'name' }[search.orderBy ?? 'createdAt'];
    const direction = search.orderDirection === 'asc' ? 'ASC' : 'DESC';
    // Names compare byte by byte, as MongoDB and the in-memory store compare them.
    const sortKey = column === 'name' ? 'name COLLATE "C"' : column;
    const [{ count }] = await this.sql.query<{ count: number }>(`SELECT COUNT(*)::int AS count FROM workflows WHERE ${where}`, params);
    const rows = await this.sql.query(
      `SELECT * FROM workflows WHERE ${where} ORDER BY ${sortKey} ${direction}, id ${direction} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, search.offset ?? page * limit],
    );
    return { items: rows.map(toWorkflow), totalCount: Number(count) };
  }

  async listActive(scope: EnvironmentScope, filter: { critical?: boolean } = {}): Promise<Workflow[]> {
    const params: unknown[] = [scope.environmentId, scope.organizationId];
    let where = 'environment_id = $1 AND organization_id = $2 AND deleted_at IS NULL AND active';
    if (filter.critical !== undefined) {
      params.push(filter.critical);
      where += ' AND critical = $3';
    }
    const rows = await this.sql.query(`SELECT * FROM workflows WHERE ${where} ORDER BY created_at, id`, params);
    return rows.map(toWorkflow);
  }

  async softDelete(scope: EnvironmentScope, id: string, deletedBy: string, deletedAt: Date): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE workflows SET deleted_at = $4, deleted_by = $5, revision = revision + 1
       WHERE id = $1 AND organization_id = $2 AND environment_id = $3 AND deleted_at IS NULL RETURNING id`,
      [id, scope.organizationId, scope.environmentId, deletedAt, deletedBy],
    );
    return rows.length === 1;
  }
}
