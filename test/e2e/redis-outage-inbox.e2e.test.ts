import { ChildProcess } from 'node:child_process';
import { io, Socket } from 'socket.io-client';
import { ServiceHarness, ServiceProcess, buildService, freePort, sleep } from '../support/service-processes';
import { startRedis, stopRedis } from '../support/own-redis';
import { uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

/**
 * The Inbox's realtime path while Redis fails: frozen (SIGSTOP) for 8 s, then killed and restarted
 * empty. An Inbox session's mark read is answered within a few seconds, and the api process still
 * pushes the new counts to its own sockets; the api and a worker delivering in-app messages all along
 * (announcing them through the emitter) stay alive; each outage is one warning per process, not one
 * per call; once Redis is back, a delivery reaches the socket through it again. A Redis of its own on
 * a free port, never the shared one.
 */
jest.setTimeout(240_000);

const COMMAND_TIMEOUT_MS = 1_000;
/** A mark read waits for one presence lookup at most; the rest is room for a loaded machine. A bound, not a benchmark. */
const LONGEST_ANSWER_MS = COMMAND_TIMEOUT_MS + 3_000;
const OUTAGE_MS = 8_000;

interface Heard {
  event: string;
  payload: { unreadCount?: number; message?: { _id: string } };
}

describe('the Inbox while Redis fails', () => {
  let buildDir: string;
  let h: ServiceHarness;
  let redis: ChildProcess;
  let redisPort: number;
  let api: ServiceProcess;
  let worker: ServiceProcess;
  let socket: Socket | undefined;

  beforeAll(async () => {
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    buildDir = await buildService();
    h = await ServiceHarness.create(buildDir, {
      redisUrl: `redis://127.0.0.1:${redisPort}`,
      env: { RECOVERY_AFTER_SECONDS: '2', REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS), LOG_LEVEL: 'info' },
    });
    h.redis.on('error', () => undefined); // the test's own connection meets the outages too
    api = await h.startApi();
    worker = await h.startWorker();
  }, 180_000);

  afterAll(async () => {
    socket?.disconnect();
    redis?.kill('SIGCONT');
    await h?.close();
    if (redis) await stopRedis(redis);
  }, 60_000);

  const inbox = async (token: string, method: string, path: string, body?: unknown) => {
    const startedAt = Date.now();
    const res = await fetch(`${h.baseUrl}/v1/inbox${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, tookMs: Date.now() - startedAt };
  };

  it('answers mark read within a few seconds, keeps every process alive and announces again once Redis is back', async () => {
    const name = uniqueName('outage').toLowerCase();
    await h.expect(201, 'POST', '/v1/workflows', {
      name,
      identifier: name,
      active: true,
      steps: [{ template: { type: 'in_app', content: 'n {{payload.n}}' } }],
    });
    const { identifier } = (await h.expect(200, 'GET', '/v1/environments/me')).data;
    const session = async (subscriberId: string): Promise<string> => {
      const res = await fetch(`${h.baseUrl}/v1/inbox/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ applicationIdentifier: identifier, subscriber: { subscriberId } }),
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { data: { token: string } }).data.token;
    };
    // `live` has a socket on the api process; `away` has none, so its changes make the api ask Redis who listens.
    const live = uniqueName('live');
    const away = uniqueName('away');
    const [liveToken, awayToken] = await Promise.all([session(live), session(away)]);
    socket = io(h.baseUrl, { transports: ['websocket'], query: { token: liveToken } });
    const heard: Heard[] = [];
    socket.onAny((event, payload) => heard.push({ event, payload }));
    await new Promise<void>((resolve) => socket!.on('connect', () => resolve()));

    let n = 0;
    const trigger = async (to: string) => {
      const res = await h.request('POST', '/v1/events/trigger', { name, to, payload: { n: ++n } });
      expect(res.status).toBe(201);
      return res.body.data.transactionId as string;
    };
    const unread = async (token: string, count: number) =>
      waitFor(async () => {
        const res = await inbox(token, 'GET', '/notifications?read=false&limit=100');
        return res.status === 200 && res.body.data.length >= count && (res.body.data as { id: string }[]);
      }, 30_000);
    // Before the outage: the worker's emitter reaches the socket.
    for (let i = 0; i < 6; i++) await Promise.all([trigger(live), trigger(away)]);
    const [liveUnread, awayUnread] = await Promise.all([unread(liveToken, 6), unread(awayToken, 6)]);
    await waitFor(async () => heard.some((e) => e.event === 'notification_received'));

    // A worker delivers in-app messages to the live subscriber all through both outages.
    const sent: Promise<string>[] = [];
    let sending = true;
    const deliveries = (async () => {
      while (sending) {
        sent.push(trigger(live));
        await sleep(300);
      }
    })();

    /** Marks one message of each subscriber read while Redis fails; the live socket hears its count drop. */
    const markReadDuringOutage = async () => {
      heard.length = 0;
      const [liveRead, awayRead] = await Promise.all([
        inbox(liveToken, 'PATCH', `/notifications/${liveUnread.pop()!.id}/read`),
        inbox(awayToken, 'PATCH', `/notifications/${awayUnread.pop()!.id}/read`),
      ]);
      for (const answer of [liveRead, awayRead]) {
        expect(answer).toMatchObject({ status: 200, body: { data: { isRead: true } } });
        expect(answer.tookMs).toBeLessThan(LONGEST_ANSWER_MS);
      }
      await waitFor(async () => heard.some((e) => e.event === 'unread_count_changed'), 5_000);
    };

    await sleep(1_000);
    redis.kill('SIGSTOP');
    await sleep(COMMAND_TIMEOUT_MS + 500);
    await markReadDuringOutage();
    await sleep(OUTAGE_MS - COMMAND_TIMEOUT_MS - 500);
    redis.kill('SIGCONT');
    await sleep(2_000);

    await stopRedis(redis);
    await sleep(COMMAND_TIMEOUT_MS + 500);
    await markReadDuringOutage();
    await sleep(OUTAGE_MS - COMMAND_TIMEOUT_MS - 500);
    redis = await startRedis(redisPort);
    // Redis restarted empty: the api tells it at once (not on its next heartbeat) which subscribers have a socket there.
    await waitFor(async () => (await h.redis.zcard(`${h.queuePrefix}:socket.io:presence`).catch(() => 0)) > 0, 5_000);
    sending = false;
    await deliveries;
    const transactionIds = await Promise.all(sent);
    expect(api.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();

    // Every trigger of the outages is delivered (the recovery enqueues what the lost queue held).
    await waitFor(async () => {
      const { rows } = await h.sql.query(`SELECT count(DISTINCT transaction_id)::int AS n FROM messages WHERE transaction_id = ANY($1)`, [transactionIds]);
      return rows[0].n === transactionIds.length;
    }, 90_000).catch(async (error) => {
      const { rows: undelivered } = await h.sql.query(
        `SELECT t.id, t.status, t.fanout_job_id FROM triggers t WHERE t.transaction_id = ANY($1) AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.transaction_id = t.transaction_id)`,
        [transactionIds],
      );
      throw new Error(`${error.message}\nundelivered: ${JSON.stringify(undelivered)}\n${h.outputs()}`);
    });
    // A new delivery reaches the socket through the worker's emitter again.
    heard.length = 0;
    const transactionId = await trigger(live);
    const { rows } = await waitFor(async () => {
      const found = await h.sql.query(`SELECT id FROM messages WHERE transaction_id = $1`, [transactionId]);
      return found.rows.length > 0 && found;
    });
    await waitFor(async () => heard.some((e) => e.event === 'notification_received' && e.payload.message?._id === rows[0].id), 30_000);

    expect(api.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();
    // One warning per outage and process (the api logs the freeze and the restart, or one line if no call succeeded between them), not one per call.
    const lines = (service: ServiceProcess, pattern: RegExp) =>
      service
        .output()
        .split('\n')
        .filter((line) => pattern.test(line)).length;
    expect(lines(api, /reach only this process's sockets while Redis fails/)).toBeGreaterThanOrEqual(1);
    expect(lines(api, /reach only this process's sockets while Redis fails/)).toBeLessThanOrEqual(2);
    expect(lines(api, /Fan-out jobs not confirmed by the queue/)).toBeGreaterThanOrEqual(1);
    expect(lines(api, /Fan-out jobs not confirmed by the queue/)).toBeLessThanOrEqual(2);
    expect(lines(api, /Fan-out jobs are enqueued again/)).toBeGreaterThanOrEqual(1);
    expect(lines(worker, /Inbox socket announcements are lost while Redis fails/)).toBeLessThanOrEqual(2);
    for (const service of [api, worker]) {
      expect(service.output()).not.toMatch(/\[ioredis\] Unhandled error event|missing 'error' handler/);
      expect(lines(service, /Redis connection lost/)).toBeLessThanOrEqual(2);
    }
  });
});
