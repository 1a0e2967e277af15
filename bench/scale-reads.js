'use strict';
// scale_reads (BENCH_ONLY=scale): the read routes on a large store. PostgreSQL is seeded in
// batched INSERT … SELECT generate_series statements (not through the API): BENCH_SCALE_SUBSCRIBERS
// subscribers (default 1,000,000), and BENCH_SCALE_MESSAGES messages (default 5,000,000), each with
// its job, one notification per BENCH_SCALE_MESSAGES_PER_NOTIFICATION (5) messages. Then each route is
// called one request at a time (a latency measure, not a throughput one) with a different target each
// time, and its p50/p99 printed beside the index use the store reported for it: the idx_scan and
// seq_scan counters of pg_stat_user_indexes / pg_stat_user_tables before and after that route's requests
// (the counters, not an EXPLAIN of a copy of the SQL, so what is printed is what the routes ran).
const { log, median, round, sleep } = require('./support');

const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const SUBSCRIBERS = num('BENCH_SCALE_SUBSCRIBERS', 1_000_000);
const MESSAGES = num('BENCH_SCALE_MESSAGES', 5_000_000);
const PER_NOTIFICATION = num('BENCH_SCALE_MESSAGES_PER_NOTIFICATION', 5);
const REQUESTS = num('BENCH_SCALE_REQUESTS', 200);
const BATCH = 250_000;
const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'];
// PostgreSQL flushes a backend's table and index counters within ~1 s of a transaction, or after 10 s idle.
const STATS_FLUSH_MS = 11_000;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function inBatches(sandbox, total, what, statement) {
  const started = performance.now();
  for (let from = 1; from <= total; from += BATCH) {
    const to = Math.min(total, from + BATCH - 1);
    await sandbox.query(statement, [from, to]);
  }
  log(`scale: ${total.toLocaleString('en')} ${what} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

// Ids as the service makes them, so the rows a later delivery inserts land among these: a notification's
// and a job's start with the second of their trigger (here: of the row's created_at), then 16 hex of a hash;
// an in-app message takes its job's id; any other message's id is a hash (24 hex, in no order).
const hexId = (text) => `substr(md5(${text}), 1, 24)`;
const timeOrderedId = (at, text) => `lpad(to_hex(floor(extract(epoch FROM ${at}))::bigint), 8, '0') || substr(md5(${text}), 1, 16)`;

async function seed(sandbox) {
  // The workflow made through the API names the API key's environment.
  const [workflow] = await sandbox.query("SELECT id, trigger_identifier, environment_id, organization_id FROM workflows WHERE trigger_identifier = 'scale'");
  const e = `'${workflow.environment_id}'`;
  const o = `'${workflow.organization_id}'`;
  const w = `'${workflow.id}'`;
  const wi = `'${workflow.trigger_identifier}'`;
  const notifications = Math.ceil(MESSAGES / PER_NOTIFICATION);
  // Times spread over the last 30 days, so the newest-first orderings have work to do.
  const at = (i) => `now() - make_interval(secs => (${i} % 2592000))`;
  const notificationId = timeOrderedId(at('n'), "'n' || n");
  const jobId = timeOrderedId(at('n'), "'j' || m");
  await inBatches(
    sandbox,
    SUBSCRIBERS,
    'subscribers',
    `INSERT INTO subscribers (id, organization_id, environment_id, subscriber_id, first_name, last_name, email, phone, created_at, updated_at)
     SELECT 'sub' || i, ${o}, ${e}, 'user-' || i, 'First' || i, 'Last' || (i % 1000), 'user' || i || '@example' || (i % 100) || '.com',
            '+1555' || lpad(i::text, 7, '0'), ${at('i')}, ${at('i')}
     FROM generate_series($1::int, $2::int) AS i`,
  );
  // Notification n belongs to subscriber ((n - 1) % SUBSCRIBERS) + 1; its messages and jobs are n's.
  await inBatches(
    sandbox,
    notifications,
    'notifications',
    `INSERT INTO notifications (id, organization_id, environment_id, workflow_id, workflow_identifier, subscriber_id, external_subscriber_id,
                                transaction_id, recipient, payload, channels, tags, critical, topics, created_at, updated_at)
     SELECT ${notificationId}, ${o}, ${e}, ${w}, ${wi}, 'sub' || s, 'user-' || s, 'txn-' || n, jsonb_build_object('subscriberId', 'user-' || s),
            '{"order":1}'::jsonb, '${JSON.stringify(CHANNELS)}'::jsonb, '[]'::jsonb, false, '[]'::jsonb, ${at('n')}, ${at('n')}
     FROM generate_series($1::int, $2::int) AS n, LATERAL (SELECT ((n - 1) % ${SUBSCRIBERS}) + 1 AS s) AS sub`,
  );
  const channelOf = `(ARRAY${JSON.stringify(CHANNELS).replace(/"/g, "'")})[((m - 1) % ${PER_NOTIFICATION}) % ${CHANNELS.length} + 1]`;
  const owner = `LATERAL (SELECT ((m - 1) / ${PER_NOTIFICATION}) + 1 AS n) AS nn, LATERAL (SELECT ((n - 1) % ${SUBSCRIBERS}) + 1 AS s) AS sub`;
  await inBatches(
    sandbox,
    MESSAGES,
    'jobs',
    `INSERT INTO jobs (id, organization_id, environment_id, notification_id, transaction_id, subscriber_id, external_subscriber_id, workflow_id,
                       workflow_identifier, step_id, type, status, payload, overrides, created_at, updated_at)
     SELECT ${jobId}, ${o}, ${e}, ${notificationId}, 'txn-' || n, 'sub' || s, 'user-' || s, ${w}, ${wi}, 'step-' || ((m - 1) % ${PER_NOTIFICATION}),
            ${channelOf}, 'completed', '{}'::jsonb, '{}'::jsonb, ${at('n')}, ${at('n')}
     FROM generate_series($1::int, $2::int) AS m, ${owner}`,
  );
  await inBatches(
    sandbox,
    MESSAGES,
    'messages',
    `INSERT INTO messages (id, organization_id, environment_id, notification_id, job_id, subscriber_id, workflow_id, template_identifier, step_id,
                           transaction_id, channel, status, content, payload, overrides, created_at, updated_at)
     SELECT CASE WHEN ${channelOf} = 'in_app' THEN ${jobId} ELSE ${hexId("'m' || m")} END, ${o}, ${e}, ${notificationId}, ${jobId}, 'sub' || s, ${w}, ${wi}, 'step-' || ((m - 1) % ${PER_NOTIFICATION}), 'txn-' || n,
            ${channelOf}, 'sent', to_jsonb('Order ' || n || ' is on its way'), '{"order":1}'::jsonb, '{}'::jsonb, ${at('n')}, ${at('n')}
     FROM generate_series($1::int, $2::int) AS m, ${owner}`,
  );
  await sandbox.query('VACUUM ANALYZE');
  return { notifications };
}

async function counters(sandbox) {
  const indexes = await sandbox.query('SELECT relname AS table, indexrelname AS index, idx_scan::bigint AS scans FROM pg_stat_user_indexes');
  const tables = await sandbox.query('SELECT relname AS table, seq_scan::bigint AS scans, seq_tup_read::bigint AS rows FROM pg_stat_user_tables');
  return { indexes, tables };
}

/** What changed between two counter readings: the indexes scanned and the tables read sequentially. */
function difference(before, after) {
  const key = (r) => `${r.table}.${r.index ?? ''}`;
  const was = new Map([...before.indexes, ...before.tables].map((r) => [key(r), r]));
  const indexScans = {};
  for (const r of after.indexes) {
    const delta = Number(r.scans) - Number(was.get(key(r))?.scans ?? 0);
    if (delta > 0) indexScans[r.index] = delta;
  }
  const seqScans = {};
  for (const r of after.tables) {
    const old = was.get(key(r));
    const delta = Number(r.scans) - Number(old?.scans ?? 0);
    if (delta > 0) seqScans[r.table] = { scans: delta, rows_read: Number(r.rows) - Number(old?.rows ?? 0) };
  }
  return { index_scans: indexScans, seq_scans: seqScans };
}

/** `afterReads(sandbox, api)`: more work on the seeded store once the reads are measured. */
async function benchScaleReads({ newSandbox, apiFor, afterReads }) {
  log(`scale: reads with ${SUBSCRIBERS.toLocaleString('en')} subscribers and ${MESSAGES.toLocaleString('en')} messages in PostgreSQL`);
  const sandbox = await newSandbox('scale');
  const api = await apiFor(sandbox);
  try {
    await api.client.post('/v1/workflows', { name: 'scale', identifier: 'scale', active: true, steps: [{ template: { type: 'in_app', content: 'x' } }] });
    const seedStarted = performance.now();
    const { notifications } = await seed(sandbox);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const pick = (n) => 1 + Math.floor(Math.random() * n);
    const routes = {
      subscribers_by_email: () => `/v2/subscribers?email=${encodeURIComponent(`user${pick(SUBSCRIBERS)}@`)}&limit=10`,
      subscribers_by_name: () => {
        const i = pick(SUBSCRIBERS);
        return `/v2/subscribers?name=${encodeURIComponent(`First${i} Last${i % 1000}`)}&limit=10`;
      },
      messages_by_subscriber: () => `/v1/messages?subscriberId=user-${pick(Math.min(SUBSCRIBERS, notifications))}&limit=10`,
      notifications_by_transaction: () => `/v1/notifications?transactionId=txn-${pick(notifications)}`,
      // Not an aim of the issue; printed so a slow unfiltered list is seen.
      messages_unfiltered: () => `/v1/messages?limit=10`,
    };
    const line = { bench: 'scale_reads', subscribers: SUBSCRIBERS, messages: MESSAGES, notifications, seed_seconds: round(seedSeconds, 0), routes: {} };
    for (const [name, target] of Object.entries(routes)) {
      // Warm the route (plans, caches) before measuring.
      for (let i = 0; i < 10; i++) await api.client.request('GET', target());
      await sleep(STATS_FLUSH_MS);
      const before = await counters(sandbox);
      const latencies = [];
      let empty = 0;
      for (let i = 0; i < REQUESTS; i++) {
        const started = performance.now();
        const body = await api.client.request('GET', target());
        latencies.push(performance.now() - started);
        if (!body.data?.length) empty++;
      }
      await sleep(STATS_FLUSH_MS);
      const used = difference(before, await counters(sandbox));
      latencies.sort((a, b) => a - b);
      line.routes[name] = {
        requests: REQUESTS,
        p50_ms: round(median(latencies), 1),
        p99_ms: round(percentile(latencies, 99), 1),
        empty_answers: empty,
        ...used,
      };
      log(`scale: ${name}: p50 ${line.routes[name].p50_ms} ms, p99 ${line.routes[name].p99_ms} ms, ${JSON.stringify(used)}`);
    }
    if (afterReads) await afterReads(sandbox, api);
    return line;
  } finally {
    await api.child.stop();
  }
}

module.exports = { benchScaleReads };
