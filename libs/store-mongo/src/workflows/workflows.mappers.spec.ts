import { OPTIONAL_WORKFLOW_FIELDS, Workflow } from '@app/workflows';
import { workflowDocuments, workflowSearchFilter } from './mongo-workflow.repository';

const at = new Date('2025-01-01T00:00:00.000Z');
const workflow = {
  id: 'w1',
  organizationId: 'o1',
  environmentId: 'e1',
  creatorId: 'u1',
  name: 'Welcome',
  description: '',
  active: true,
  draft: false,
  critical: false,
  preferenceSettings: { email: true, sms: true, in_app: true, chat: true, push: true },
  tags: ['onboarding'],
  steps: [{ _id: 's1', active: true, template: { type: 'in_app', content: 'Hi {{payload.name}}', variables: [{ name: 'a.b' }] }, filters: [] }],
  trigger: { type: 'event', identifier: 'welcome', variables: [] },
  notificationGroupId: 'g1',
  data: { 'x.y': 1 },
  createdAt: at,
  updatedAt: at,
  revision: 1,
  lastPublishedAt: at,
  lastPublishedBy: 'u3',
  origin: 'novu-cloud',
  payloadSchema: { type: 'object', properties: { $ref: { type: 'string' } } },
  validatePayload: true,
  severity: 'low',
  isTranslationEnabled: false,
  preferences: { user: null, workflow: { all: { enabled: true }, channels: {} } },
} as unknown as Workflow;

describe('workflow documents', () => {
  it('keep the trigger identifier top-level and a deleted flag for the partial unique index, and round-trip', () => {
    const doc = workflowDocuments.toDocument(workflow);
    expect(doc).toMatchObject({
      _id: 'w1',
      triggerIdentifier: 'welcome',
      deleted: false,
      data: { 'x%2Ey': 1 },
      payloadSchema: { properties: { '%24ref': {} } },
    });
    expect(workflowDocuments.toDomain(doc)).toEqual(workflow);
  });

  it('round-trip a deletion, and leave data absent when there is none', () => {
    const deleted = { ...workflow, deletedAt: at, deletedBy: 'u2' };
    expect(workflowDocuments.toDocument(deleted)).toMatchObject({ deleted: true, deletedAt: at, deletedBy: 'u2' });
    expect(workflowDocuments.toDomain(workflowDocuments.toDocument(deleted))).toEqual(deleted);
    const { data: _d, ...bare } = workflow;
    expect(workflowDocuments.toDocument(bare as Workflow)).not.toHaveProperty('data');
    expect(workflowDocuments.toDomain({ ...workflowDocuments.toDocument(bare as Workflow), data: null, deletedBy: 'ignored without deletedAt' })).toEqual(bare);
  });

  it('an update rewrites the workflow but not its identity, creation or deletion, and removes data it no longer has', () => {
    const bare = Object.fromEntries(
      Object.entries(workflow).filter(([key]) => !(OPTIONAL_WORKFLOW_FIELDS as readonly string[]).includes(key)),
    ) as unknown as Workflow;
    const update = workflowDocuments.update({ ...bare, revision: 2 });
    expect(Object.keys(update.$set).sort()).toEqual(
      [
        'active',
        'creatorId',
        'critical',
        'description',
        'draft',
        'name',
        'notificationGroupId',
        'preferenceSettings',
        'revision',
        'steps',
        'tags',
        'trigger',
        'triggerIdentifier',
        'updatedAt',
      ].sort(),
    );
    expect(update.$unset).toEqual(Object.fromEntries(OPTIONAL_WORKFLOW_FIELDS.map((field) => [field, ''])));
    expect(workflowDocuments.update(workflow)).not.toHaveProperty('$unset');
  });

  it('a search covers live workflows, the query matching the name or the trigger identifier', () => {
    const scope = { organizationId: 'o1', environmentId: 'e1' };
    expect(workflowSearchFilter(scope)).toEqual({ environmentId: 'e1', organizationId: 'o1', deleted: false });
    expect(workflowSearchFilter(scope, 'wel.come')).toEqual({
      environmentId: 'e1',
      organizationId: 'o1',
      deleted: false,
      $or: [{ name: { $regex: 'wel\\.come', $options: 'i' } }, { triggerIdentifier: { $regex: 'wel\\.come', $options: 'i' } }],
    });
  });
});
