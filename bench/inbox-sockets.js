'use strict';
// inbox_sockets: socket deliveries per second to N connected Inbox subscribers (production mode: the
// worker's events reach the api process's sockets through Redis), beside a bare socket.io server in
// this process sending the same number of messages, one per subscriber room, measured in the same run.
const { createServer } = require('node:http');
const { Server } = require('socket.io');
const { io } = require('socket.io-client');
const { log, pool, round, waitUntil } = require('./support');

const SOCKETS = Number(process.env.BENCH_INBOX_SOCKETS || 1000);

/** pool() that keeps each item's result, in order. */
async function mapPool(items, concurrency, work) {
  const results = new Array(items.length);
  await pool(items, concurrency, async (item, index) => (results[index] = await work(item, index)));
  return results;
}

function connect(url, query) {
  return new Promise((resolve, reject) => {
    const socket = io(url, { transports: ['websocket'], query, reconnection: false, forceNew: true });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** Times until every socket got its event; `fire` sends. */
async function timeDeliveries(sockets, event, fire) {
  let received = 0;
  let last = 0;
  const done = new Promise((resolve) => {
    for (const socket of sockets) {
      socket.once(event, () => {
        received += 1;
        last = performance.now();
        if (received === sockets.length) resolve();
      });
    }
  });
  const started = performance.now();
  await fire();
  await Promise.race([
    done,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`only ${received}/${sockets.length} ${event} events arrived`)), 120_000)),
  ]);
  return (last - started) / 1000;
}

async function bareBaseline(payload) {
  const server = createServer();
  const hub = new Server(server, { path: '/socket.io' });
  hub.on('connection', (socket) => socket.join(`room-${socket.handshake.query.n}`));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  const sockets = await mapPool(
    Array.from({ length: SOCKETS }, (_, n) => n),
    50,
    (n) => connect(url, { n: String(n) }),
  );
  try {
    const seconds = await timeDeliveries(sockets, 'notification_received', async () => {
      for (let n = 0; n < SOCKETS; n++) hub.to(`room-${n}`).emit('notification_received', { message: payload });
    });
    return seconds;
  } finally {
    for (const socket of sockets) socket.disconnect();
    await new Promise((resolve) => hub.close(resolve));
  }
}

async function benchInboxSockets({ newSandbox, apiFor, startWorker, seed }) {
  log(`inbox_sockets: one topic trigger to ${SOCKETS} subscribers with an open Inbox socket`);
  const sandbox = await newSandbox('inbox');
  const api = await apiFor(sandbox);
  let worker;
  let sockets = [];
  try {
    const workflow = 'bench-inbox';
    await seed(api.client, workflow);
    const { data: environment } = await api.client.request('GET', '/v1/environments/me');
    const ids = Array.from({ length: SOCKETS }, (_, i) => `inbox-sub-${i}`);
    const tokens = await mapPool(ids, 20, async (subscriberId) => {
      const res = await fetch(`${api.baseUrl}/v1/inbox/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ applicationIdentifier: environment.identifier, subscriber: { subscriberId } }),
      });
      if (res.status !== 201) throw new Error(`session refused: ${res.status} ${await res.text()}`);
      return (await res.json()).data.token;
    });
    const topicKey = 'bench-inbox-topic';
    await api.client.post('/v2/topics', { key: topicKey, name: 'Inbox bench' });
    for (let i = 0; i < ids.length; i += 100) await api.client.post(`/v2/topics/${topicKey}/subscriptions`, { subscriberIds: ids.slice(i, i + 100) });
    sockets = await mapPool(tokens, 50, (token) => connect(api.baseUrl, { token }));
    log(`inbox_sockets: ${sockets.length} sockets connected`);

    worker = startWorker(sandbox);
    // a warm-up delivery proves the worker is up
    const warm = timeDeliveries([sockets[0]], 'notification_received', () =>
      api.client.post('/v1/events/trigger', { name: workflow, to: ids[0], payload: { order: 'warmup' }, transactionId: `warm-${Date.now()}` }),
    );
    await warm;
    let sample;
    sockets[1].once('notification_received', (payload) => (sample = payload.message));
    const seconds = await timeDeliveries(sockets, 'notification_received', () =>
      api.client.post('/v1/events/trigger', { name: workflow, to: { type: 'Topic', topicKey }, payload: { order: 1 }, transactionId: `inbox-${Date.now()}` }),
    );
    const bareSeconds = await bareBaseline(sample ?? { content: 'x' });
    const line = {
      bench: 'inbox_sockets',
      subscribers: SOCKETS,
      seconds: round(seconds),
      socket_deliveries_per_s: round(SOCKETS / seconds, 0),
      bare_socketio_per_room_per_s: round(SOCKETS / bareSeconds, 0),
      ratio: round(bareSeconds / seconds, 3),
      note: 'service: trigger -> fan-out -> stored message -> counts -> Redis emitter -> api socket; bare: one emit per room in this process',
    };
    return line;
  } finally {
    for (const socket of sockets) socket.disconnect();
    await worker?.stop();
    await api.child.stop();
  }
}

module.exports = { benchInboxSockets };
