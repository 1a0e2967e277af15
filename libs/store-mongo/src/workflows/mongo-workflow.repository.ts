import { EnvironmentScope, Page } from '@app/kernel';
import { OPTIONAL_WORKFLOW_FIELDS, Workflow, WorkflowRepository, WorkflowSearch, WorkflowUpdateResult } from '@app/workflows';
import { mongo } from 'mongoose';
import { containsIgnoringCase } from '../mongo-cursor-page';
import { Doc, DocumentMapper, updateOf } from '../mongo-documents';
import { isDuplicateKey } from '../mongo-errors';
import { insertUnlessDuplicate } from '../mongo-writes';
import { COLLECTIONS, MongoStore } from '../mongo-store';

const documents = new DocumentMapper<Workflow>({
  fields: [
    'organizationId',
    'environmentId',
    'creatorId',
    'name',
    'description',
    'active',
    'draft',
    'critical',
    'preferenceSettings',
    'tags',
    'steps',
    'trigger',
    'notificationGroupId',
    'createdAt',
    'updatedAt',
    'revision',
    'deletedAt',
    'deletedBy',
    ...OPTIONAL_WORKFLOW_FIELDS,
  ],
  json: ['preferenceSettings', 'steps', 'trigger', 'data', 'payloadSchema', 'preferences'],
});

/**
 * Workflow ↔ document. The trigger identifier is also a top-level field and `deleted` a flag: the
 * partial unique index on live identifiers needs both (a partial index cannot test a missing field).
 */
export const workflowDocuments = {
  toDocument(workflow: Workflow): Doc {
    return { ...documents.toDocument(workflow), triggerIdentifier: workflow.trigger.identifier, deleted: workflow.deletedAt !== undefined };
  },
  toDomain(doc: Doc): Workflow {
    const workflow = documents.toDomain(doc);
    workflow.trigger = { ...workflow.trigger, identifier: doc.triggerIdentifier };
    if (!workflow.deletedAt) delete workflow.deletedBy;
    return workflow;
  },
  /** What an update writes: every field of the workflow but its identity, creation and deletion. */
  update(workflow: Workflow): Doc {
    const { _id, organizationId, environmentId, createdAt, deletedAt, deletedBy, deleted, ...fields } = workflowDocuments.toDocument(workflow);
    const $unset = Object.fromEntries(OPTIONAL_WORKFLOW_FIELDS.filter((field) => fields[field] === undefined).map((field) => [field, '']));
    return updateOf({ $set: fields, $unset });
  },
};

/** The filter of a workflow search: live, of the environment, the query a case-insensitive substring of the name or the trigger identifier. */
export function workflowSearchFilter(scope: EnvironmentScope, query?: string): mongo.Filter<Doc> {
  const live = { environmentId: scope.environmentId, organizationId: scope.organizationId, deleted: false };
  if (!query) return live;
  const contains = containsIgnoringCase(query);
  return { ...live, $or: [{ name: contains }, { triggerIdentifier: contains }] };
}

/** WorkflowRepository on MongoDB: deleted workflows stay (flagged), a partial unique index holds live trigger identifiers. */
export class MongoWorkflowRepository implements WorkflowRepository {
  constructor(private readonly store: MongoStore) {}

  private get workflows() {
    return this.store.collection(COLLECTIONS.workflows);
  }

  insert(workflow: Workflow): Promise<boolean> {
    return insertUnlessDuplicate(() => this.workflows.insertOne(workflowDocuments.toDocument(workflow)), 'triggerIdentifier');
  }

  async update(workflow: Workflow, expectedRevision: number): Promise<WorkflowUpdateResult> {
    try {
      const result = await this.workflows.updateOne(
        { _id: workflow.id, organizationId: workflow.organizationId, environmentId: workflow.environmentId, deleted: false, revision: expectedRevision },
        workflowDocuments.update(workflow),
      );
      if (result.matchedCount === 1) return 'updated';
    } catch (error) {
      if (isDuplicateKey(error)) return 'identifier_taken';
      throw error;
    }
    return (await this.findById(workflow, workflow.id)) ? 'stale' : 'not_found';
  }

  findById(scope: EnvironmentScope, id: string): Promise<Workflow | null> {
    return this.findOne({ _id: id, organizationId: scope.organizationId, environmentId: scope.environmentId, deleted: false });
  }

  findByIdIncludingDeleted(scope: EnvironmentScope, id: string): Promise<Workflow | null> {
    return this.findOne({ _id: id, organizationId: scope.organizationId, environmentId: scope.environmentId });
  }

  findByTriggerIdentifier(scope: EnvironmentScope, identifier: string): Promise<Workflow | null> {
    return this.findOne({ environmentId: scope.environmentId, triggerIdentifier: identifier, deleted: false, organizationId: scope.organizationId });
  }

  async findByIdOrIdentifier(scope: EnvironmentScope, idOrIdentifier: string): Promise<Workflow | null> {
    const docs = await this.workflows
      .find({
        environmentId: scope.environmentId,
        organizationId: scope.organizationId,
        deleted: false,
        $or: [{ _id: idOrIdentifier }, { triggerIdentifier: idOrIdentifier }],
      })
      .toArray();
    // the id wins when both match
    const doc = docs.find((d) => d._id === idOrIdentifier) ?? docs[0];
    return doc ? workflowDocuments.toDomain(doc) : null;
  }

  async search(scope: EnvironmentScope, search: WorkflowSearch): Promise<Page<Workflow>> {
    const { page, limit, query, tags, active } = search;
    const filter: mongo.Filter<Doc> = {
      ...workflowSearchFilter(scope, query),
      ...(tags?.length ? { tags: { $in: tags } } : {}),
      ...(active !== undefined ? { active } : {}),
    };
    const direction = search.orderDirection === 'asc' ? 1 : -1;
    const sort: mongo.Sort = { [search.orderBy ?? 'createdAt']: direction, _id: direction };
    const [docs, totalCount] = await Promise.all([
      this.workflows.find(filter, { sort, skip: search.offset ?? page * limit, limit }).toArray(),
      this.workflows.countDocuments(filter),
    ]);
    return { items: docs.map((doc) => workflowDocuments.toDomain(doc)), totalCount };
  }

  async listActive(scope: EnvironmentScope, filter: { critical?: boolean } = {}): Promise<Workflow[]> {
    const docs = await this.workflows
      .find(
        {
          environmentId: scope.environmentId,
          organizationId: scope.organizationId,
          deleted: false,
          active: true,
          ...(filter.critical !== undefined ? { critical: filter.critical } : {}),
        },
        { sort: { createdAt: 1, _id: 1 } },
      )
      .toArray();
    return docs.map((doc) => workflowDocuments.toDomain(doc));
  }

  async softDelete(scope: EnvironmentScope, id: string, deletedBy: string, deletedAt: Date): Promise<boolean> {
    const result = await this.workflows.updateOne(
      { _id: id, organizationId: scope.organizationId, environmentId: scope.environmentId, deleted: false },
      { $set: { deleted: true, deletedAt, deletedBy }, $inc: { revision: 1 } },
    );
    return result.matchedCount === 1;
  }

  private async findOne(filter: mongo.Filter<Doc>): Promise<Workflow | null> {
    const doc = await this.workflows.findOne(filter);
    return doc ? workflowDocuments.toDomain(doc) : null;
  }
}
