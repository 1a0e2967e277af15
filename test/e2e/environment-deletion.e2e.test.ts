import { SQL_CLIENT, SqlClient } from '@app/store-sql';
import { ApiClient, STORES, TestApp, startTestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/** Every table of the app's schema with an `environment_id` column, read from the catalogue here (not from the purger). */
async function scopedTables(sql: SqlClient): Promise<string[]> {
  const rows = await sql.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'environment_id' ORDER BY table_name`,
  );
  return rows.map((row) => row.table_name);
}

/** Rows of the environment, per table; triggers_pending (listed by trigger id) and the environment's own row too. */
async function rowsOf(sql: SqlClient, environmentId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await scopedTables(sql)) {
    const [row] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" WHERE environment_id = $1`, [environmentId]);
    counts[table] = row.n;
  }
  const [pending] = await sql.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM triggers_pending p JOIN triggers t ON t.id = p.id WHERE t.environment_id = $1',
    [environmentId],
  );
  const [own] = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM environments WHERE id = $1', [environmentId]);
  return { ...counts, triggers_pending: pending.n, environments: own.n };
}

/**
 * The environment's background work is done: every job finished, every webhook delivery attempted once (the
 * retries wait an hour here). Work of an environment still running when it is deleted may write after the purge.
 */
async function settled(sql: SqlClient, environmentId: string): Promise<void> {
  await waitFor(async () => {
    const [row] = await sql.query<{ busy: number; attempted: number }>(
      `SELECT (SELECT count(*)::int FROM jobs WHERE environment_id = $1 AND status IN ('pending', 'queued', 'running', 'delayed'))
            + (SELECT count(*)::int FROM triggers WHERE environment_id = $1 AND status = 'accepted')
            + (SELECT count(*)::int FROM webhook_deliveries WHERE environment_id = $1 AND attempts = 0) AS busy,
              (SELECT count(*)::int FROM webhook_attempts WHERE environment_id = $1) AS attempted`,
      [environmentId],
    );
    return row.busy === 0 && row.attempted > 0;
  });
}

/** Fills an environment through its own key: a record in every context a client can write. */
async function fill(api: ApiClient): Promise<void> {
  const identifier = uniqueName('doomed-workflow').toLowerCase();
  await api
    .post('/v1/workflows')
    .send({ name: 'Doomed', identifier, active: true, tags: ['x'], steps: [{ template: { type: 'in_app', content: 'Hello {{payload.name}}' } }] })
    .expect(201);
  await api.post('/v2/subscribers').send({ subscriberId: 'ada', email: 'ada@example.com' }).expect(201);
  await api
    .patch('/v2/subscribers/ada/preferences')
    .send({ channels: { email: false } })
    .expect(200);
  await api.post('/v2/topics').send({ key: 'news', name: 'News' }).expect(201);
  await api
    .post('/v2/topics/news/subscriptions')
    .send({ subscriberIds: ['ada'] })
    .expect(201);
  await api.post('/v1/tenants').send({ identifier: 'acme', name: 'Acme' }).expect(201);
  await api.post('/v1/integrations').send({ providerId: 'sendgrid', channel: 'email', active: false }).expect(201);
  await api.post('/v2/outbound-webhooks/endpoints').send({ url: 'http://127.0.0.1:9/hooks' }).expect(201);
  await api
    .post('/v1/events/trigger')
    .send({ name: identifier, to: 'ada', payload: { name: 'Ada' } })
    .expect(201);
  await waitFor(async () => (await api.get('/v1/messages?subscriberId=ada&channel=in_app').expect(200)).body.data[0]);
}

describe.each(STORES)('deleting an environment (%s)', (store) => {
  let t: TestApp;
  let sql: SqlClient;
  beforeAll(async () => {
    t = await startTestApp({ store, env: { WEBHOOK_RETRY_DELAYS: '1h' } });
    sql = t.app.get(SQL_CLIENT);
  });
  afterAll(() => t.close());

  it('removes every row of it in every table, at once refuses its key, and leaves the other environments as they were', async () => {
    const created = await t.api().post('/v1/environments').send({ name: 'Doomed', color: '#f44336' }).expect(201);
    const doomedId: string = created.body.data._id;
    const doomedKey: string = created.body.data.apiKeys[0].key;
    await fill(t.api(doomedKey));
    await fill(t.api());
    const developmentId: string = (await t.api().get('/v1/environments/me').expect(200)).body.data._id;
    await settled(sql, doomedId);
    await settled(sql, developmentId);

    const before = await rowsOf(sql, doomedId);
    // What a client writes reached these tables (so the check below has something to find).
    for (const table of [
      'api_keys',
      'subscribers',
      'subscriber_preferences',
      'topics',
      'topic_subscriptions',
      'tenants',
      'integrations',
      'workflows',
      'triggers',
      'notifications',
      'messages',
      'webhook_endpoints',
      'webhook_deliveries',
      'webhook_attempts',
    ]) {
      expect({ table, rows: before[table] > 0 }).toEqual({ table, rows: true });
    }
    const developmentBefore = await rowsOf(sql, developmentId);

    await t.api().delete(`/v1/environments/${doomedId}`).expect(200);

    expect((await t.api(doomedKey).get('/v1/environments/me')).status).toBe(401);
    const after = await rowsOf(sql, doomedId);
    expect(after).toEqual(Object.fromEntries(Object.keys(before).map((table) => [table, 0])));
    expect(await rowsOf(sql, developmentId)).toEqual(developmentBefore);
    expect((await t.api().get('/v1/environments').expect(200)).body.data.map((e: { name: string }) => e.name)).toEqual(['Development']);
  });
});
