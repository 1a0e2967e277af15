import { SUPPRESSION_REASONS } from '@app/delivery';
import { EnvironmentScope, newId } from '@app/kernel';
import { blankWorkflow } from '@app/workflows';
import { Repositories } from '../fakes/memory';
import { REPOSITORY_STORES } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';
import type { RepositoryStoreFixture } from '../support/sql-stores';
import { job, message, notification, tick, triggerRecord } from './delivery-fixtures';

/**
 * The EnvironmentDataPurger contract: after a purge, no port answers anything of the environment, and
 * every other environment keeps all it had. Records are written through the ports, one or more per
 * repository, in two environments of one organization.
 */
function environmentDataPurgerContract(fixture: RepositoryStoreFixture) {
  let r: Repositories;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repositories: r, close } = await fixture.open()));
  afterAll(() => close());

  const organizationId = newId();
  const doomed: EnvironmentScope = { organizationId, environmentId: newId() };
  const kept: EnvironmentScope = { organizationId, environmentId: newId() };

  /** Writes a record through each port; answers what finds each again. */
  async function seed(scope: EnvironmentScope) {
    const now = tick();
    const { subscriber } = await r.subscribers.upsert(scope, { id: newId(), subscriberId: 'ada', changes: { email: 'ada@example.com' }, now });
    await r.preferences.upsert(scope, { subscriberId: subscriber.id, workflowId: null, channels: { email: false }, at: now });
    await r.tenants.insert({ id: newId(), ...scope, identifier: 'acme', createdAt: now, updatedAt: now });
    await r.topics.insert({ id: newId(), ...scope, key: 'news', createdAt: now, updatedAt: now });
    await r.contexts.insert({ id: newId(), ...scope, type: 'tenant', identifier: 'acme', data: { plan: 'pro' }, createdAt: now, updatedAt: now });
    // A variable of the organization: each environment has its own value of it.
    await r.environmentVariables.insert({
      id: newId(),
      organizationId,
      key: 'SUPPORT_URL',
      type: 'string',
      isSecret: false,
      values: {},
      createdAt: now,
      updatedAt: now,
    });
    await r.environmentVariables.update(organizationId, 'SUPPORT_URL', { values: { [scope.environmentId]: 'https://support.example.com' } }, now);
    const workflow = blankWorkflow({ id: newId(), ...scope, creatorId: 'key', createdAt: now }, 'Welcome');
    workflow.trigger.identifier = 'welcome';
    await r.workflows.insert(workflow);
    const layoutId = newId();
    await r.layouts.insert({
      id: layoutId,
      ...scope,
      layoutId: 'brand',
      name: 'Brand',
      isTranslationEnabled: false,
      controlValues: null,
      creatorId: 'key',
      createdAt: now,
      updatedAt: now,
    });
    const trigger = triggerRecord(scope);
    await r.triggers.insertIfAbsent(trigger);
    const n = notification(scope);
    const j = job(n, 'step-1');
    const m = message(j);
    await r.chains.write([{ kind: 'new', notification: n, jobs: [j], messages: [m], details: [] }]);
    await r.suppressions.insertIfAbsent({
      ...scope,
      address: 'bounced@example.com',
      channel: 'email',
      reason: SUPPRESSION_REASONS[0],
      providerId: 'sendgrid',
      messageId: m.id,
      createdAt: now,
    });
    await r.digestBuckets.openAsMaster(scope, 'bucket', j.id, { jobId: j.id, notificationId: n.id, payload: {}, at: now }, tick());
    const translated = { type: 'workflow' as const, key: workflow.id };
    await r.translations.upsert({
      id: newId(),
      ...scope,
      resourceType: 'workflow',
      resourceKey: workflow.id,
      locale: 'de',
      content: { hi: 'Hallo' },
      createdAt: now,
      updatedAt: now,
    });
    await r.translations.saveSettings(scope, { defaultLocale: 'de', targetLocales: [] });
    return {
      subscriber: () => r.subscribers.findBySubscriberId(scope, 'ada'),
      preferences: async () => ((await r.preferences.listForSubscriber(scope, subscriber.id)).length ? true : null),
      tenant: () => r.tenants.findByIdentifier(scope, 'acme'),
      topic: () => r.topics.findByKey(scope, 'news'),
      context: () => r.contexts.find(scope, 'tenant', 'acme'),
      environmentValue: async () => ((await r.environmentVariables.valuesFor(organizationId, scope.environmentId)).length ? true : null),
      workflow: () => r.workflows.findByIdIncludingDeleted(scope, workflow.id),
      layout: () => r.layouts.findByReference(scope, layoutId),
      trigger: () => r.triggers.findById(trigger.id),
      notification: () => r.notifications.findById(scope, n.id),
      job: () => r.jobs.findById(j.id),
      message: () => r.messages.findById(scope, m.id),
      suppression: () => r.suppressions.find(scope, 'bounced@example.com'),
      digestBucket: () => r.digestBuckets.mergeIntoOpen(scope, 'bucket', { jobId: newId(), notificationId: n.id, payload: {}, at: tick() }),
      translation: () => r.translations.find(scope, translated, 'de'),
      translationSettings: () => r.translations.findSettings(scope),
    };
  }

  const found = async (lookups: Record<string, () => Promise<unknown>>) =>
    Object.fromEntries(await Promise.all(Object.entries(lookups).map(async ([name, lookup]) => [name, (await lookup()) !== null])));

  it("removes every record of the environment, and none of another environment's", async () => {
    const doomedLookups = await seed(doomed);
    const keptLookups = await seed(kept);
    const everything = Object.fromEntries(Object.keys(doomedLookups).map((name) => [name, true]));
    expect(await found(doomedLookups)).toEqual(everything);

    expect(await r.environmentData.purge(doomed.environmentId)).toBeGreaterThanOrEqual(Object.keys(doomedLookups).length);
    expect(await found(doomedLookups)).toEqual(Object.fromEntries(Object.keys(doomedLookups).map((name) => [name, false])));
    expect(await found(keptLookups)).toEqual(everything);
    expect(await r.environmentData.purge(doomed.environmentId)).toBe(0);
    // the organization's variable stays, with the other environment's value
    expect((await r.environmentVariables.findByKey(organizationId, 'SUPPORT_URL'))?.values).toEqual({ [kept.environmentId]: 'https://support.example.com' });
  });
}

describe.each(REPOSITORY_STORES)('EnvironmentDataPurger on $name', (store) => environmentDataPurgerContract(store));

describeMongoContract('EnvironmentDataPurger', (store) => environmentDataPurgerContract(store));
