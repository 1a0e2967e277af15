/**
 * Wire compatibility with Novu's older server SDK, `@novu/node` 2.x: every call below goes through the
 * real package (`new Novu(apiKey, { backendUrl })`), which speaks Novu's v1 routes and hands back the
 * axios response (`res.data` is the body; success bodies are `{data: …}`).
 *
 * Written and run against @novu/node 2.6.6 (the version in use is printed in the suite name).
 * Covered here: events (trigger, bulk, broadcast, cancel), v1 topics and their subscribers, tenants,
 * integrations (set-primary, webhook and in-app status), messages, workflows through
 * notification-templates, notification groups, execution details, environments.me and getAll, and the families
 * answered as not supported. The SDK's subscriber calls are in novu-node-subscribers.compat.test.ts;
 * subscribers are made here with plain HTTP (/v2/subscribers).
 */
import { Novu } from '@novu/node';
import { AddressInfo } from 'node:net';
import { describeEachStore, startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { NOVU_NODE_VERSION, refused } from '../support/novu-node';

describeEachStore(`@novu/node ${NOVU_NODE_VERSION} against the service (%s)`, (store) => {
  let t: TestApp;
  let baseUrl: string;
  let novu: Novu;
  const subscriberIds = [uniqueName('node-a'), uniqueName('node-b')];

  beforeAll(async () => {
    t = await startTestApp({ store });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    novu = new Novu(t.apiKey, { backendUrl: baseUrl });
    for (const subscriberId of subscriberIds) await http(t.apiKey, 'POST', '/v2/subscribers', { subscriberId, firstName: 'Node' });
  });
  afterAll(() => t?.close());

  /** Our own API, for what the SDK leaves to other routes (creating subscribers). */
  async function http(apiKey: string, method: string, path: string, body?: unknown) {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { Authorization: `ApiKey ${apiKey}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  /** The in-app messages of one transaction, once the worker has written `count` of them. */
  async function inAppMessages(client: Novu, transactionId: string, count: number) {
    return waitFor(async () => {
      const res = await client.messages.list({ transactionIds: [transactionId], channel: 'in_app' as never, limit: 100 });
      return res.data.data.length === count && res.data.data;
    });
  }

  /** An active workflow with one in-app step, made through notification-templates; its trigger identifier. */
  async function inAppWorkflow(client: Novu, name: string): Promise<{ id: string; identifier: string }> {
    const groups = await client.notificationGroups.get();
    const res = await client.notificationTemplates.create({
      name,
      notificationGroupId: groups.data.data[0]._id,
      active: true,
      steps: [{ template: { type: 'in_app', content: 'Hello {{payload.name}}' } }] as never,
    });
    return { id: res.data.data._id, identifier: res.data.data.triggers[0].identifier };
  }

  it('environments.getCurrent', async () => {
    const res = await novu.environments.getCurrent();
    expect(res.status).toBe(200);
    expect(res.data.data).toMatchObject({ name: 'Development', identifier: expect.any(String), _id: expect.stringMatching(/^[0-9a-f]{24}$/) });
  });

  it('environments.getAll lists the environments of the organization', async () => {
    const res = await novu.environments.getAll();
    expect(res.status).toBe(200);
    expect(res.data.data.map((e: { name: string }) => e.name)).toContain('Development');
  });

  describe('workflows through notification-templates', () => {
    let workflowId: string;
    let groupId: string;

    it('notificationGroups.get and getOne: the default group', async () => {
      const groups = await novu.notificationGroups.get();
      expect(groups.data.data).toEqual([expect.objectContaining({ name: 'General', _environmentId: expect.any(String) })]);
      groupId = groups.data.data[0]._id;
      expect((await novu.notificationGroups.getOne(groupId)).data.data._id).toBe(groupId);
      await refused('notificationGroups.getOne unknown', 404, () => novu.notificationGroups.getOne('000000000000000000000000'));
    });

    it('create (201), with Novu v1 fields', async () => {
      const res = await novu.notificationTemplates.create({
        name: uniqueName('Node template'),
        notificationGroupId: groupId,
        tags: ['node'],
        description: 'Made by @novu/node',
        active: true,
        critical: false,
        steps: [{ name: 'In-app', template: { type: 'in_app', content: 'Hi {{payload.name}}' } }] as never,
      });
      expect(res.status).toBe(201);
      expect(res.data.data).toMatchObject({
        active: true,
        draft: false,
        tags: ['node'],
        _notificationGroupId: groupId,
        steps: [{ template: { type: 'in_app' } }],
      });
      workflowId = res.data.data._id;
    });

    it('getAll (page-based), getOne, update', async () => {
      const all = await novu.notificationTemplates.getAll(0, 100);
      expect(all.data).toMatchObject({ page: 0, pageSize: 100, totalCount: expect.any(Number) });
      expect(all.data.data.map((w: { _id: string }) => w._id)).toContain(workflowId);
      expect((await novu.notificationTemplates.getOne(workflowId)).data.data._id).toBe(workflowId);
      const updated = await novu.notificationTemplates.update(workflowId, { name: 'Renamed by node', notificationGroupId: groupId, tags: ['renamed'] });
      expect(updated.data.data).toMatchObject({ _id: workflowId, name: 'Renamed by node', tags: ['renamed'] });
    });

    it('updateStatus off and on; the same status again is a 400', async () => {
      expect((await novu.notificationTemplates.updateStatus(workflowId, false)).data.data).toMatchObject({ active: false, draft: true });
      const body = await refused('updateStatus unchanged', 400, () => novu.notificationTemplates.updateStatus(workflowId, false));
      expect(body.message).toBe('You must provide a different status from the current status');
      expect((await novu.notificationTemplates.updateStatus(workflowId, true)).data.data).toMatchObject({ active: true, draft: false });
    });

    it('delete, then getOne is a 404', async () => {
      expect((await novu.notificationTemplates.delete(workflowId)).data).toEqual({ data: true });
      await refused('getOne deleted', 404, () => novu.notificationTemplates.getOne(workflowId));
    });
  });

  describe('events', () => {
    let workflow: { id: string; identifier: string };
    beforeAll(async () => (workflow = await inAppWorkflow(novu, uniqueName('Node events'))));

    it('trigger (201, processed) delivers; messages.list and executionDetails.get read it', async () => {
      const res = await novu.trigger(workflow.identifier, { to: subscriberIds[0], payload: { name: 'Ada' } });
      expect(res.status).toBe(201);
      expect(res.data.data).toMatchObject({ acknowledged: true, status: 'processed', transactionId: expect.any(String) });
      const [message] = await inAppMessages(novu, res.data.data.transactionId, 1);
      expect(message).toMatchObject({ content: 'Hello Ada', subscriber: { subscriberId: subscriberIds[0] } });

      const list = await novu.messages.list({ subscriberId: subscriberIds[0], limit: 10 });
      expect(list.data).toMatchObject({ page: 0, pageSize: 10, hasMore: false });
      expect(list.data.data.map((m: { _id: string }) => m._id)).toContain(message._id);

      const details = await novu.executionDetails.get({ notificationId: message._notificationId, subscriberId: subscriberIds[0] });
      expect(details.data.data.length).toBeGreaterThan(0);
      expect(details.data.data[0]).toMatchObject({
        _notificationId: message._notificationId,
        _notificationTemplateId: workflow.id,
        _subscriberId: message._subscriberId,
        transactionId: res.data.data.transactionId,
        status: expect.any(String),
        source: expect.any(String),
      });
      const other = await novu.executionDetails.get({ notificationId: message._notificationId, subscriberId: subscriberIds[1] });
      expect(other.data.data).toEqual([]);
      await refused('executionDetails.get unknown subscriber', 404, () =>
        novu.executionDetails.get({ notificationId: message._notificationId, subscriberId: uniqueName('nobody') }),
      );
    });

    it('bulkTrigger: one answer per event in order, a bad event refused in its place', async () => {
      const transactionIds = [uniqueName('bulk-1'), uniqueName('bulk-2')];
      const res = await novu.bulkTrigger([
        { name: workflow.identifier, to: subscriberIds[0], payload: { name: 'One' }, transactionId: transactionIds[0] },
        { name: uniqueName('no-such-workflow'), to: subscriberIds[0], payload: {} },
        { name: workflow.identifier, to: [subscriberIds[1]], payload: { name: 'Two' }, transactionId: transactionIds[1] },
        { name: workflow.identifier } as never,
      ]);
      expect(res.status).toBe(201);
      expect(res.data.data).toEqual([
        expect.objectContaining({ acknowledged: true, status: 'processed', transactionId: transactionIds[0] }),
        { acknowledged: true, status: 'error', error: ['workflow_not_found'] },
        expect.objectContaining({ acknowledged: true, status: 'processed', transactionId: transactionIds[1] }),
        { acknowledged: true, status: 'error', error: [expect.stringContaining('to')] },
      ]);
      expect((await inAppMessages(novu, transactionIds[0], 1))[0].content).toBe('Hello One');
      expect((await inAppMessages(novu, transactionIds[1], 1))[0].content).toBe('Hello Two');
    });

    it('bulkTrigger with more than 100 events is refused whole (422)', async () => {
      const events = Array.from({ length: 101 }, () => ({ name: workflow.identifier, to: subscriberIds[0], payload: {} }));
      const body = await refused('bulkTrigger 101', 422, () => novu.bulkTrigger(events));
      expect(JSON.stringify(body.errors)).toContain('events must contain no more than 100 elements');
    });

    it('cancel stops a delayed step (data: true), and the message is never written', async () => {
      const groups = await novu.notificationGroups.get();
      const delayed = await novu.notificationTemplates.create({
        name: uniqueName('Node delayed'),
        notificationGroupId: groups.data.data[0]._id,
        active: true,
        steps: [
          { template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } },
          { template: { type: 'in_app', content: 'Later' } },
        ] as never,
      });
      const res = await novu.trigger(delayed.data.data.triggers[0].identifier, { to: subscriberIds[0], payload: {} });
      const { transactionId } = res.data.data;
      // the delay job exists once the fan-out has run
      await waitFor(async () => {
        const activity = await http(t.apiKey, 'GET', `/v1/notifications?transactionId=${transactionId}`);
        return activity.data.length === 1 && activity.data[0].jobs.some((job: { status: string }) => job.status === 'delayed');
      });
      const cancel = await novu.events.cancel(transactionId);
      expect(cancel.status).toBe(200);
      expect(cancel.data).toEqual({ data: true });
      const activity = await http(t.apiKey, 'GET', `/v1/notifications?transactionId=${transactionId}`);
      expect(activity.data[0].jobs.map((job: { status: string }) => job.status)).toEqual(['canceled', 'canceled']);
      expect((await novu.messages.list({ transactionIds: [transactionId] })).data.data).toEqual([]);
    });

    it('broadcast reaches every subscriber of the environment once (an environment of its own)', async () => {
      const other = await t.createEnvironment(uniqueName('Broadcast'));
      const client = new Novu(other.apiKey, { backendUrl: baseUrl });
      const audience = Array.from({ length: 12 }, (_, i) => uniqueName(`everyone-${i}`));
      for (const subscriberId of audience) await http(other.apiKey, 'POST', '/v2/subscribers', { subscriberId });
      const announcement = await inAppWorkflow(client, uniqueName('Node broadcast'));
      const res = await client.broadcast(announcement.identifier, { payload: { name: 'everyone' } });
      expect(res.status).toBe(201);
      expect(res.data.data).toMatchObject({ acknowledged: true, status: 'processed', transactionId: expect.any(String) });
      const messages = await inAppMessages(client, res.data.data.transactionId, audience.length);
      expect(messages.map((m: { subscriber: { subscriberId: string } }) => m.subscriber.subscriberId).sort()).toEqual([...audience].sort());
      expect(messages.every((m: { content: string }) => m.content === 'Hello everyone')).toBe(true);
    });

    it('broadcast of an unknown workflow is a 422 workflow_not_found', async () => {
      const body = await refused('broadcast unknown', 422, () => novu.broadcast(uniqueName('no-such-workflow'), { payload: {} }));
      expect(body.message).toBe('workflow_not_found');
    });
  });

  describe('topics (v1)', () => {
    const key = uniqueName('node-topic');

    it('create (201: _id and key); a second create of the key is a 409', async () => {
      const res = await novu.topics.create({ key, name: 'Node topic' });
      expect(res.status).toBe(201);
      expect(res.data.data).toEqual({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), key });
      await refused('topics.create again', 409, () => novu.topics.create({ key, name: 'Again' }));
    });

    it('addSubscribers: succeeded and failed.notFound', async () => {
      const ghost = uniqueName('ghost');
      const res = await novu.topics.addSubscribers(key, { subscribers: [...subscriberIds, ghost] });
      expect(res.status).toBe(200);
      expect(res.data.data.succeeded.sort()).toEqual([...subscriberIds].sort());
      expect(res.data.data.failed).toEqual({ notFound: [ghost] });
      const all = await novu.topics.addSubscribers(key, { subscribers: [subscriberIds[0]] });
      expect(all.data.data).toEqual({ succeeded: [subscriberIds[0]] });
    });

    it('get, list (page-based, exact key), rename', async () => {
      const got = await novu.topics.get(key);
      expect(got.data.data).toMatchObject({ key, name: 'Node topic', _environmentId: expect.any(String), _organizationId: expect.any(String) });
      expect(got.data.data.subscribers.sort()).toEqual([...subscriberIds].sort());

      const listed = await novu.topics.list({ key });
      expect(listed.data).toMatchObject({ page: 0, pageSize: 10, totalCount: 1, data: [{ key }] });
      const paged = await novu.topics.list({ page: 0, pageSize: 5 });
      expect(paged.data).toMatchObject({ page: 0, pageSize: 5 });
      await refused('topics.list pageSize 11', 400, () => novu.topics.list({ pageSize: 11 }));

      const renamed = await novu.topics.rename(key, 'Renamed node topic');
      expect(renamed.data.data).toMatchObject({ key, name: 'Renamed node topic' });
      expect(renamed.data.data.subscribers).toHaveLength(2);
    });

    it('getSubscriber and checkSubscriber; 404 for a non-member', async () => {
      const res = await novu.topics.getSubscriber(key, subscriberIds[0]);
      expect(res.data.data).toMatchObject({
        topicKey: key,
        externalSubscriberId: subscriberIds[0],
        _topicId: expect.any(String),
        _subscriberId: expect.any(String),
      });
      expect((await novu.topics.checkSubscriber(key, subscriberIds[1])).data.data.externalSubscriberId).toBe(subscriberIds[1]);
      await refused('topics.getSubscriber non-member', 404, () => novu.topics.getSubscriber(key, uniqueName('stranger')));
    });

    it('a trigger to the topic reaches its members', async () => {
      const workflow = await inAppWorkflow(novu, uniqueName('Node topic workflow'));
      const res = await novu.trigger(workflow.identifier, { to: [{ type: 'Topic', topicKey: key }] as never, payload: { name: 'topic' } });
      const messages = await inAppMessages(novu, res.data.data.transactionId, 2);
      expect(messages.map((m: { subscriber: { subscriberId: string } }) => m.subscriber.subscriberId).sort()).toEqual([...subscriberIds].sort());
    });

    it('delete is refused while the topic has subscribers (409); removeSubscribers (204), then delete (204)', async () => {
      await refused('topics.delete with members', 409, () => novu.topics.delete(key));
      const removed = await novu.topics.removeSubscribers(key, { subscribers: subscriberIds });
      expect(removed.status).toBe(204);
      expect((await novu.topics.removeSubscribers(uniqueName('no-topic'), { subscribers: subscriberIds })).status).toBe(204);
      expect((await novu.topics.delete(key)).status).toBe(204);
      await refused('topics.get deleted', 404, () => novu.topics.get(key));
      await refused('topics.delete deleted', 404, () => novu.topics.delete(key));
    });
  });

  describe('tenants', () => {
    const identifier = uniqueName('node-tenant');

    it('create, get, list, update, delete', async () => {
      const created = await novu.tenants.create(identifier, { name: 'Acme', data: { plan: 'pro' } });
      expect(created.status).toBe(201);
      expect(created.data.data).toMatchObject({ identifier, name: 'Acme', data: { plan: 'pro' } });
      expect((await novu.tenants.get(identifier)).data.data.identifier).toBe(identifier);
      const listed = await novu.tenants.list({ page: 0, limit: 100 });
      expect(listed.data.data.map((x: { identifier: string }) => x.identifier)).toContain(identifier);
      const updated = await novu.tenants.update(identifier, { name: 'Acme Inc' });
      expect(updated.data.data.name).toBe('Acme Inc');
      expect((await novu.tenants.delete(identifier)).status).toBe(204);
      await refused('tenants.get deleted', 404, () => novu.tenants.get(identifier));
    });
  });

  describe('integrations', () => {
    const credentials = { apiKey: 'SG.fake', from: 'noreply@example.com', senderName: 'Acme' };
    let first: string;
    let second: string;

    it('create: the first active email integration is primary, the next one not', async () => {
      const a = await novu.integrations.create('sendgrid', { channel: 'email' as never, active: true, credentials, identifier: uniqueName('sg-a') });
      const b = await novu.integrations.create('sendgrid', { channel: 'email' as never, active: true, credentials, identifier: uniqueName('sg-b') });
      expect(a.status).toBe(201);
      expect(a.data.data.primary).toBe(true);
      expect(b.data.data.primary).toBe(false);
      [first, second] = [a.data.data._id, b.data.data._id];
    });

    it('setIntegrationAsPrimary moves the primary flag; 400 for a channel without primary or an id that is not one; 404 for an unknown id', async () => {
      const res = await novu.integrations.setIntegrationAsPrimary(second);
      expect(res.status).toBe(201);
      expect(res.data.data).toMatchObject({ _id: second, primary: true, active: true, conditions: [] });
      const all = await novu.integrations.getAll();
      const byId = new Map(all.data.data.map((i: { _id: string; primary: boolean; priority: number }) => [i._id, i]));
      expect(byId.get(first)).toMatchObject({ primary: false });
      expect((byId.get(second) as { priority: number }).priority).toBeGreaterThan((byId.get(first) as { priority: number }).priority);
      expect((await novu.integrations.setIntegrationAsPrimary(second)).data.data.primary).toBe(true);

      const chat = await novu.integrations.create('discord', { channel: 'chat' as never, active: true, identifier: uniqueName('discord') });
      const body = await refused('set-primary chat', 400, () => novu.integrations.setIntegrationAsPrimary(chat.data.data._id));
      expect(body.message).toBe('Channel chat does not support primary');
      await refused('set-primary unknown', 404, () => novu.integrations.setIntegrationAsPrimary('000000000000000000000000'));
      const malformed = await refused('set-primary malformed', 400, () => novu.integrations.setIntegrationAsPrimary('fakeIntegrationId'));
      expect(malformed.message).toBe('integrationId must be a mongodb id');
    });

    it('getActive and getInAppStatus', async () => {
      const active = await novu.integrations.getActive();
      expect(active.data.data.map((i: { _id: string }) => i._id)).toEqual(expect.arrayContaining([first, second]));
      expect((await novu.integrations.getInAppStatus()).data).toEqual({ data: true });
    });

    it('getWebhookProviderStatus: by provider id or integration id; 404 and 400 as Novu', async () => {
      expect((await novu.integrations.getWebhookProviderStatus('sendgrid')).data).toEqual({ data: true });
      expect((await novu.integrations.getWebhookProviderStatus(first)).data).toEqual({ data: true });
      const smtp = await novu.integrations.create('nodemailer', {
        channel: 'email' as never,
        credentials: { host: 'smtp.example.com', port: '587', from: 'noreply@example.com', senderName: 'Acme' },
        identifier: uniqueName('smtp'),
      });
      expect((await novu.integrations.getWebhookProviderStatus(smtp.data.data._id)).data).toEqual({ data: false }); // SMTP sends no events
      await refused('webhook status of an absent provider', 404, () => novu.integrations.getWebhookProviderStatus('postmark'));
      const slack = await novu.integrations.create('slack', {
        channel: 'chat' as never,
        credentials: { apiToken: 'xoxb-1' },
        identifier: uniqueName('slack'),
      });
      const body = await refused('webhook status of chat', 400, () => novu.integrations.getWebhookProviderStatus(slack.data.data._id));
      expect(body.message).toBe('Webhook for slack-chat is not supported yet');
    });

    it('update and delete', async () => {
      const updated = await novu.integrations.update(first, { name: 'SendGrid (node)' });
      expect(updated.data.data).toMatchObject({ _id: first, name: 'SendGrid (node)' });
      const remaining = await novu.integrations.delete(first);
      expect(remaining.data.data.map((i: { _id: string }) => i._id)).not.toContain(first);
    });
  });

  describe('families the service does not serve', () => {
    it('answer 404 with code not_supported and a message that says so', async () => {
      const calls: [string, () => Promise<unknown>][] = [
        ['feeds.get', () => novu.feeds.get()],
        ['layouts.list', () => novu.layouts.list()],
        ['changes.get', () => novu.changes.get({ page: 0, limit: 10, promoted: false })],
        ['organizations.list', () => novu.organizations.list()],
        ['environments.getApiKeys', () => novu.environments.getApiKeys()],
        ['notificationGroups.create', () => novu.notificationGroups.create('Marketing')],
        ['workflowOverrides.list', () => novu.workflowOverrides.list()],
        ['inboundParse.getMxStatus', () => novu.inboundParse.getMxStatus()],
      ];
      for (const [what, call] of calls) {
        const body = await refused(what, 404, call);
        expect({ what, code: body.code }).toEqual({ what, code: 'not_supported' });
        expect(body.message).toMatch(/^Novu's [a-z-]+ API is not supported by this service: /);
      }
    });
  });
});
