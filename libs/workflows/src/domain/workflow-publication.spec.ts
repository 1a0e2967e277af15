import { Workflow } from './workflow';
import { applyWorkflowFields, blankWorkflow } from './workflow-fields';
import { diffWorkflows, publishedCopy } from './workflow-publication';

const source = (identifier: string, fields: Parameters<typeof applyWorkflowFields>[1] = {}): Workflow =>
  applyWorkflowFields(
    blankWorkflow({ id: 'a'.repeat(24), organizationId: 'org', environmentId: 'dev', creatorId: 'key', createdAt: new Date(0) }, identifier),
    {
      identifier,
      steps: [
        { name: 'In-app', template: { type: 'in_app', content: 'Hello' } },
        { name: 'Email', template: { type: 'email', subject: 'Hi', content: 'Hello' } },
      ],
      ...fields,
    },
  );

/** The source published to production, as publishing writes it (its own id and times, the source's steps). */
const copyOf = (workflow: Workflow) =>
  publishedCopy(
    workflow,
    { id: 'b'.repeat(24), organizationId: 'org', environmentId: 'prod', creatorId: 'other', createdAt: new Date(5), revision: 3 },
    new Date(9),
    'key',
  );

describe('diffWorkflows', () => {
  it('sees a copy as unchanged: ids, environment, times and history are not content', () => {
    const dev = source('welcome');
    const [diff] = diffWorkflows([dev], [copyOf(dev)]);
    expect(diff).toMatchObject({ workflowId: 'welcome', action: 'unchanged', fields: null, steps: [] });
  });

  it('reports the fields that differ, and steps modified, moved, added and deleted, matched by step id', () => {
    const dev = source('welcome');
    const prod = copyOf(dev);
    const [inApp, email] = dev.steps;
    const changed: Workflow = {
      ...dev,
      description: 'New',
      steps: [
        { ...email, template: { ...email.template, subject: 'Hello' } },
        { ...inApp, id: 'c'.repeat(24) },
      ],
    };
    const [diff] = diffWorkflows([changed], [prod]);
    expect(diff.action).toBe('modified');
    expect(diff.fields).toEqual({ previous: { description: '' }, next: { description: 'New' } });
    expect(diff.steps.map((s) => [s.action, s.step.id, s.previousIndex, s.newIndex])).toEqual([
      ['modified', email.id, 1, 0],
      ['added', 'c'.repeat(24), undefined, 1],
      ['deleted', inApp.id, 0, undefined],
    ]);
    const moved = diffWorkflows([{ ...dev, steps: [email, inApp] }], [prod])[0];
    expect(moved.steps.map((s) => s.action)).toEqual(['moved', 'moved']);
  });

  it('adds what only the source has (with its steps) and deletes what only the target has', () => {
    const diffs = diffWorkflows([source('new')], [copyOf(source('gone'))]);
    expect(diffs.map((d) => [d.workflowId, d.action, d.steps.map((s) => s.action)])).toEqual([
      ['new', 'added', ['added', 'added']],
      ['gone', 'deleted', []],
    ]);
  });
});

describe('publishedCopy', () => {
  it("takes the source's content over the target's identity, in the target's notification group, stamped as published", () => {
    const dev = source('welcome', { tags: ['a'], data: { x: 1 } });
    const copy = copyOf(dev);
    expect(copy).toMatchObject({ id: 'b'.repeat(24), environmentId: 'prod', creatorId: 'other', revision: 3, tags: ['a'], data: { x: 1 } });
    expect(copy.steps).toEqual(dev.steps);
    expect(copy.notificationGroupId).not.toBe(dev.notificationGroupId);
    expect(copy).toMatchObject({ lastPublishedAt: new Date(9), lastPublishedBy: 'key', updatedAt: new Date(9) });
  });
});
