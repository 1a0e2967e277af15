import { SUBSCRIBER_REPOSITORY, Subscriber, SubscriberRepository, UpsertSubscribers } from '@app/subscribers';
import { SQL_CLIENT, SqlClient } from '@app/store-sql';
import { STORES, TestApp, startTestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const AUDIENCE = 10_000;
const SEED_BATCH = 500;
/** The fan-out's largest batch (FAN_OUT_BATCH_SIZE): the most subscribers it may hold from one read. */
const MAX_PAGE = 500;

/**
 * POST /v1/events/trigger/broadcast to an environment of 10,000 subscribers: each gets exactly one
 * message, and the fan-out reads the subscribers in bounded pages (counted through a spy on the
 * repository it reads them from), never all at once.
 */
describe.each(STORES)('broadcast to 10,000 subscribers (%s)', (store) => {
  let t: TestApp;
  let sql: SqlClient;
  beforeAll(async () => {
    t = await startTestApp({ store });
    sql = t.app.get(SQL_CLIENT);
  });
  afterAll(() => t?.close());

  it('delivers one message to each, reading them a bounded page at a time', async () => {
    const { apiKey, environmentId } = await t.createEnvironment(uniqueName('Broadcast'));
    const me = await t.api(apiKey).get('/v1/environments/me').expect(200);
    const scope = { organizationId: me.body.data._organizationId as string, environmentId };
    // A subscriber of another environment must hear nothing.
    await t.api().post('/v2/subscribers').send({ subscriberId: 'elsewhere' }).expect(201);

    const upsert = t.app.get(UpsertSubscribers);
    for (let start = 0; start < AUDIENCE; start += SEED_BATCH) {
      const subscribers = Array.from({ length: Math.min(SEED_BATCH, AUDIENCE - start) }, (_, i) => ({
        subscriberId: `everyone-${start + i}`,
        changes: { firstName: `Reader ${start + i}` },
      }));
      await upsert.execute({ scope, subscribers });
    }
    const workflow = await t
      .api(apiKey)
      .post('/v1/workflows')
      .send({ name: 'Announcement', active: true, steps: [{ template: { type: 'in_app', content: 'Hi {{subscriber.firstName}}: {{payload.news}}' } }] })
      .expect(201);

    const repository = t.app.get<SubscriberRepository>(SUBSCRIBER_REPOSITORY);
    const pages = jest.spyOn(repository, 'listBatch');
    const res = await t
      .api(apiKey)
      .post('/v1/events/trigger/broadcast')
      .send({ name: workflow.body.data.triggers[0].identifier, payload: { news: 'v2 is out' } })
      .expect(201);
    expect(res.body.data).toMatchObject({ acknowledged: true, status: 'processed' });
    const { transactionId } = res.body.data;

    const counts = async () =>
      (
        await sql.query<{ messages: number; subscribers: number }>(
          `SELECT COUNT(*)::int AS messages, COUNT(DISTINCT subscriber_id)::int AS subscribers FROM messages WHERE environment_id = $1 AND transaction_id = $2`,
          [environmentId, transactionId],
        )
      )[0];
    await waitFor(async () => (await counts()).messages >= AUDIENCE, 300_000, 250);
    await waitFor(async () => {
      const [trigger] = await sql.query<{ status: string }>('SELECT status FROM triggers WHERE environment_id = $1 AND transaction_id = $2', [
        environmentId,
        transactionId,
      ]);
      return trigger.status === 'processed';
    });
    expect(await counts()).toEqual({ messages: AUDIENCE, subscribers: AUDIENCE });
    const [sample] = await sql.query<{ content: string }>('SELECT content FROM messages WHERE environment_id = $1 AND transaction_id = $2 LIMIT 1', [
      environmentId,
      transactionId,
    ]);
    expect(JSON.stringify(sample.content)).toMatch(/Hi Reader \d+: v2 is out/);
    const [{ elsewhere }] = await sql.query<{ elsewhere: number }>(
      'SELECT COUNT(*)::int AS elsewhere FROM messages WHERE transaction_id = $1 AND environment_id <> $2',
      [transactionId, environmentId],
    );
    expect(elsewhere).toBe(0);

    // The fan-out walked the environment in pages of at most MAX_PAGE: ceil(10,000 / 500) reads,
    // each answering no more than it asked for, none of another environment.
    const calls = pages.mock.calls.filter(([callScope]) => callScope.environmentId === environmentId);
    expect(calls.length).toBe(Math.ceil(AUDIENCE / MAX_PAGE));
    expect(Math.max(...calls.map(([, , limit]) => limit))).toBeLessThanOrEqual(MAX_PAGE);
    const answers = (await Promise.all(pages.mock.results.map((result) => result.value))) as { subscribers: Subscriber[] }[];
    expect(Math.max(...answers.map((answer) => answer.subscribers.length))).toBeLessThanOrEqual(MAX_PAGE);
    pages.mockRestore();
  });
});
