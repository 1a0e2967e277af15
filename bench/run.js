'use strict';
// `npm run bench`: benchmarks of the BUILT service (dist/) in production mode (api and worker
// processes, PostgreSQL, Redis), each beside a baseline measured in the same run, because this
// machine is noisy: compare ratios, not absolute numbers. stdout carries one JSON line per
// benchmark; progress goes to stderr. Each phase gets its own database and Bull prefix, dropped after.
//
// Knobs (environment): BENCH_ONLY=idle,http,deliveries,live,fanout,neighbour,inbox,scale,vendors  BENCH_INBOX_SOCKETS=1000  BENCH_HTTP_SECONDS=10  BENCH_ROUNDS=3
// BENCH_CONNECTIONS=50  BENCH_DELIVERIES=20000  BENCH_NOOP_JOBS=20000  BENCH_TOPIC_SIZES=10000,100000
// BENCH_NEIGHBOUR_TRIGGERS=200  BENCH_NEIGHBOUR_INTERVAL_MS=50  BENCH_NEIGHBOUR_BURST=5000  BENCH_NEIGHBOUR_LIMIT=1000/10 (or 0)
// BENCH_NEIGHBOUR_STALL=150x5000 (or 0)  BENCH_NEIGHBOUR_TRACE=<dir> (per-trigger timings of each scenario; bench/noisy-neighbour.js)
// BENCH_IDLE_SECONDS=5  BENCH_IDLE_READINGS=5 (bench/idle-rss.js)
// BENCH_VENDOR_SUBSCRIBERS=10000  BENCH_VENDOR_DELAY_MS=100  BENCH_VENDOR_LIMIT=500  BENCH_VENDOR_BATCH_LIMIT=50
// BENCH_VENDOR_SCENARIOS=in_app,email_unlimited,... (bench/slow-vendors.js)
// BENCH_DIST=dist  BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres  BENCH_REDIS_URL=redis://127.0.0.1:6379
// BENCH_SERVICE_ENV="WORKER_CONCURRENCY=40" (extra env for api/worker)  BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"
// BENCH_CHILD_LOG=/tmp/child (each child process's output appended to /tmp/child.<name>.<pid>)
const path = require('node:path');
const autocannon = require('autocannon');
const {
  ApiClient,
  Child,
  REDIS_URL,
  RUN_ID,
  Sandbox,
  freePort,
  killAllChildren,
  cpuSeconds,
  log,
  machineCpuBetween,
  machineCpuSeconds,
  median,
  pool,
  result,
  round,
  seedTopic,
  sleep,
  startApi,
  startWorker,
  waitForHealthy,
  waitUntil,
  withTimeout,
} = require('./support');
const { benchNoisyNeighbour } = require('./noisy-neighbour');
const { benchIdleRss } = require('./idle-rss');
const { benchInboxSockets } = require('./inbox-sockets');
const { benchScaleReads } = require('./scale-reads');
const { benchSlowVendors } = require('./slow-vendors');

const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const ONLY = new Set((process.env.BENCH_ONLY || 'idle,http,deliveries,live,fanout,neighbour,inbox,scale,vendors').split(',').map((s) => s.trim()));
const HTTP_SECONDS = num('BENCH_HTTP_SECONDS', 10);
const ROUNDS = num('BENCH_ROUNDS', 3);
const CONNECTIONS = num('BENCH_CONNECTIONS', 50);
// As many deliveries as baseline jobs: 5,000 took about a second, most of it a process still compiling its code.
const NOOP_JOBS = num('BENCH_NOOP_JOBS', 20000);
const DELIVERIES = num('BENCH_DELIVERIES', NOOP_JOBS);
const TOPIC_SIZES = (process.env.BENCH_TOPIC_SIZES || '10000,100000').split(',').map(Number);
// The worker's step concurrency (the service's WORKER_CONCURRENCY default); the no-op baseline uses the same.
const WORKER_CONCURRENCY = 100;
const SUBSCRIBER_SET = 10;
const WHOLE_RUN_LIMIT_MS = 30 * 60_000;

const AIMS = {
  trigger_vs_bare_fastify: 0.15,
  trigger_p99_ms: 50,
  deliveries_vs_noop: 0.5,
  live_deliveries_vs_noop: 0.15,
  fanout_deliveries_per_s: 3000,
  fanout_linear_within: 1.25,
  fanout_peak_rss_mb: 512,
  neighbour_p99_vs_quiet: 2,
  scale_read_p99_ms: 50,
};
const summary = {};
const sandboxes = [];

// ---------------------------------------------------------------- helpers

async function newSandbox(phase) {
  const sandbox = new Sandbox(phase);
  sandboxes.push(sandbox);
  await sandbox.create();
  return sandbox;
}

/** An api process on a fresh port, healthy, with a client using the bootstrap key; `extra`: more environment. */
async function apiFor(sandbox, extra) {
  const port = await freePort();
  const child = startApi(sandbox, port, extra);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealthy(child, baseUrl);
  return { child, baseUrl, client: new ApiClient(baseUrl, sandbox.apiKey) };
}

/** A workflow with one in-app step, and the small fixed set of subscribers triggers go to. */
async function seed(client, identifier) {
  await client.post('/v1/workflows', {
    name: identifier,
    identifier,
    active: true,
    steps: [{ template: { type: 'in_app', content: 'Order {{payload.order}} for {{subscriber.subscriberId}} is on its way' } }],
  });
  const subscriberIds = Array.from({ length: SUBSCRIBER_SET }, (_, i) => `bench-sub-${i}`);
  for (const subscriberId of subscriberIds) await client.post('/v2/subscribers', { subscriberId, firstName: 'Bench' });
  return subscriberIds;
}

function triggerBody(workflow, subscriberIds, transactionId, n) {
  return { name: workflow, to: subscriberIds[n % subscriberIds.length], payload: { order: n, items: ['a', 'b'] }, transactionId };
}

function cannon(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, res) => (error ? reject(error) : resolve(res)));
  });
}

// ---------------------------------------------------------------- 0. idle memory

async function benchIdle() {
  const lines = await benchIdleRss({ newSandbox, apiFor });
  for (const line of lines) result(line);
}

// ---------------------------------------------------------------- 1. HTTP

async function benchHttp() {
  log('http: trigger route (api process alone, no worker) vs a bare Nest POST route on Fastify (the platform the api runs on)');
  const sandbox = await newSandbox('http');
  const api = await apiFor(sandbox);
  const barePort = await freePort();
  const bare = new Child('bare-fastify', path.join(__dirname, 'bare-nest.js'), [String(barePort)], { PATH: process.env.PATH });
  try {
    await bare.waitForLine(/^listening/, 90_000);
    const workflow = 'bench-http';
    const subscriberIds = await seed(api.client, workflow);
    let counter = 0;
    const request = (target) => ({
      method: 'POST',
      path: target === 'trigger' ? '/v1/events/trigger' : '/bench',
      headers: { 'content-type': 'application/json', authorization: `ApiKey ${sandbox.apiKey}` },
      setupRequest: (req) => {
        const n = counter++;
        return { ...req, body: JSON.stringify(triggerBody(workflow, subscriberIds, `bench-${RUN_ID}-${n}`, n)) };
      },
    });
    const run = async (target, seconds) => {
      const url = target === 'trigger' ? api.baseUrl : `http://127.0.0.1:${barePort}`;
      const res = await withTimeout(
        cannon({ url, connections: CONNECTIONS, duration: seconds, requests: [request(target)] }),
        (seconds + 30) * 1000,
        `autocannon ${target}`,
      );
      const ok = res['2xx'];
      const bad = res.non2xx + res.errors + res.timeouts;
      if (bad > 0) log(`http: ${target}: ${res.non2xx} non-2xx, ${res.errors} errors, ${res.timeouts} timeouts`);
      return { rps: ok / res.duration, p50: res.latency.p50, p99: res.latency.p99, ok, bad };
    };

    log('http: warm-up (3 s each)');
    await run('bare', 3);
    await run('trigger', 3);
    const bareRounds = [];
    const triggerRounds = [];
    for (let r = 1; r <= ROUNDS; r++) {
      bareRounds.push(await run('bare', HTTP_SECONDS));
      triggerRounds.push(await run('trigger', HTTP_SECONDS));
      log(`http: round ${r}: bare Fastify ${Math.round(bareRounds.at(-1).rps)} req/s, trigger ${Math.round(triggerRounds.at(-1).rps)} req/s`);
    }
    const [stored] = await sandbox.query('SELECT count(*)::int AS n FROM triggers');
    const accepted = triggerRounds.reduce((sum, r) => sum + r.ok, 0);
    const rps = median(triggerRounds.map((r) => r.rps));
    const baselineRps = median(bareRounds.map((r) => r.rps));
    const line = {
      bench: 'trigger_http',
      rps: round(rps, 0),
      p50_ms: median(triggerRounds.map((r) => r.p50)),
      p99_ms: median(triggerRounds.map((r) => r.p99)),
      baseline: 'bare_nest_fastify_post',
      baseline_rps: round(baselineRps, 0),
      baseline_p50_ms: median(bareRounds.map((r) => r.p50)),
      baseline_p99_ms: median(bareRounds.map((r) => r.p99)),
      ratio: round(rps / baselineRps),
      rounds: ROUNDS,
      seconds_per_round: HTTP_SECONDS,
      connections: CONNECTIONS,
      rounds_rps: triggerRounds.map((r) => round(r.rps, 0)),
      baseline_rounds_rps: bareRounds.map((r) => round(r.rps, 0)),
      failed_requests: [...triggerRounds, ...bareRounds].reduce((sum, r) => sum + r.bad, 0),
      worker: 'none (api process alone)',
      // The warm-up triggers are stored too; every 201 must be a stored trigger.
      triggers_stored: stored.n,
      triggers_201_in_rounds: accepted,
    };
    result(line);
    summary.trigger_http = line;
  } finally {
    await Promise.all([bare.stop(), api.child.stop()]);
  }
}

// ---------------------------------------------------------------- 2. deliveries

async function countMessages(sandbox, transactionPrefix) {
  const [row] = await sandbox.query("SELECT count(*)::int AS n FROM messages WHERE transaction_id LIKE $1 || '%'", [transactionPrefix]);
  return row.n;
}

/**
 * Polls until `expected` messages of these transactions exist. Each poll reads the queues' lengths in
 * Redis (`onPoll` runs first); messages are counted (a sequential scan) only once the queues are idle,
 * so the poll takes no PostgreSQL CPU from the deliveries it waits for.
 */
async function waitForMessages(sandbox, transactionPrefix, expected, { worker, timeoutMs, intervalMs = 100, onPoll }) {
  await waitUntil(
    async () => {
      if (worker && !worker.running) throw new Error(`worker exited:\n${worker.output}`);
      await onPoll?.();
      return (await sandbox.queuesIdle()) && (await countMessages(sandbox, transactionPrefix)) >= expected;
    },
    { timeoutMs, intervalMs, what: `${expected} in-app messages` },
  );
}

/** How many fan-out jobs carried these transactions' triggers. */
async function fanOutJobCount(sandbox, transactionPrefix) {
  const [row] = await sandbox.query("SELECT count(DISTINCT fanout_job_id)::int AS n FROM triggers WHERE transaction_id LIKE $1 || '%'", [transactionPrefix]);
  return row.n;
}

/** First store write of the worker for these transactions, and the last message: the delivery window. */
async function deliveryWindowSeconds(sandbox, transactionPrefix) {
  const [row] = await sandbox.query(
    `SELECT (SELECT min(created_at) FROM notifications WHERE transaction_id LIKE $1 || '%') AS first,
            (SELECT max(created_at) FROM messages WHERE transaction_id LIKE $1 || '%') AS last`,
    [transactionPrefix],
  );
  return (row.last.getTime() - row.first.getTime()) / 1000;
}

async function noopBull(sandbox, roundNo) {
  const child = new Child(
    'noop-bull',
    path.join(__dirname, 'noop-bull.js'),
    [REDIS_URL, `${sandbox.queuePrefix}_noop`, `noop_r${roundNo}`, String(NOOP_JOBS), String(WORKER_CONCURRENCY)],
    {
      PATH: process.env.PATH,
    },
  );
  const line = await child.waitForLine(/^\{/, 180_000);
  await withTimeout(child.exited, 30_000, 'noop-bull exit');
  return JSON.parse(line);
}

/** The store alone taking the same deliveries' rows (bench/store-writes.js): the ceiling of any delivery rate. */
async function storeWrites(sandbox) {
  const poolSize = Math.min(20, 5 + Math.floor(WORKER_CONCURRENCY / 10)); // the worker's pool
  const child = new Child(
    'store-writes',
    path.join(__dirname, 'store-writes.js'),
    [sandbox.databaseUrl, String(DELIVERIES), String(WORKER_CONCURRENCY), String(poolSize), process.env.BENCH_DIST || 'dist'],
    {
      PATH: process.env.PATH,
    },
  );
  const line = await child.waitForLine(/^\{/, 180_000);
  await withTimeout(child.exited, 30_000, 'store-writes exit');
  return JSON.parse(line);
}

/** The PostgreSQL backends serving a sandbox's database (the worker's pool), other than the bench's own connection. */
async function backendPids(sandbox) {
  const rows = await sandbox.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
  return rows.map((row) => row.pid);
}

/**
 * CPU the worker and its PostgreSQL backends spend per delivery, between the first poll after a
 * message was written and the last poll: seconds of CPU are far less sensitive to a busy machine
 * than a rate. Polls read /proc only; how many messages each had seen comes afterwards from the
 * messages' `created_at` (the worker's clock, on this machine).
 */
class DeliveryCpu {
  constructor(sandbox, worker) {
    this.sandbox = sandbox;
    this.worker = worker;
    this.samples = [];
  }

  async sample() {
    const pids = await backendPids(this.sandbox);
    this.samples.push({
      at: Date.now(),
      worker: cpuSeconds(this.worker.pid),
      backends: new Map(pids.map((pid) => [pid, cpuSeconds(pid)])),
      machine: machineCpuSeconds(),
    });
  }

  /**
   * Microseconds of CPU per delivery: { worker, postgres, machine (every process: Redis, the kernel, this
   * bench too) }, and busyShare (how much of the machine's CPU was busy then), or null when too few polls saw deliveries.
   */
  async perDelivery(transactionPrefix) {
    const rows = await this.sandbox.query("SELECT created_at AS at FROM messages WHERE transaction_id LIKE $1 || '%' ORDER BY created_at", [transactionPrefix]);
    const written = rows.map((row) => row.at.getTime());
    const seenBy = (at) => {
      let low = 0;
      for (let high = written.length; low < high;) {
        const mid = (low + high) >> 1;
        if (written[mid] <= at) low = mid + 1;
        else high = mid;
      }
      return low;
    };
    const counted = this.samples.map((sample) => ({ ...sample, count: seenBy(sample.at) }));
    const first = counted.find((sample) => sample.count > 0);
    const last = counted.at(-1);
    if (!first || !last || last.count <= first.count) return null;
    const n = last.count - first.count;
    let postgres = 0;
    for (const [pid, seconds] of last.backends) postgres += seconds - (first.backends.get(pid) ?? 0);
    const { busy, busyShare } = machineCpuBetween(first.machine, last.machine);
    return {
      worker: ((last.worker - first.worker) / n) * 1e6,
      postgres: (postgres / n) * 1e6,
      machine: (busy / n) * 1e6,
      busyShare,
    };
  }
}

const cpuMedian = (rounds, side, digits = 0) => {
  const values = rounds.filter((r) => r.cpu).map((r) => r.cpu[side]);
  return values.length ? round(median(values), digits) : null;
};

/**
 * One backlog: DELIVERIES triggers accepted while no worker runs, then one worker, timed from its
 * first store write to the last message (`prefix` starts the round's transactionIds).
 */
async function backlogRound(sandbox, api, workflow, subscriberIds, prefix) {
  const numbers = Array.from({ length: DELIVERIES }, (_, i) => i);
  await pool(numbers, CONNECTIONS, (n) => api.client.post('/v1/events/trigger', triggerBody(workflow, subscriberIds, `${prefix}${n}`, n)));
  const worker = startWorker(sandbox);
  const spawned = performance.now();
  const cpu = new DeliveryCpu(sandbox, worker);
  try {
    await waitForMessages(sandbox, prefix, DELIVERIES, { worker, timeoutMs: 60_000 + DELIVERIES * 20, onPoll: () => cpu.sample() });
  } finally {
    await worker.stop();
  }
  const wallSeconds = (performance.now() - spawned) / 1000;
  const seconds = await deliveryWindowSeconds(sandbox, prefix);
  return { seconds, wallSeconds, rate: DELIVERIES / seconds, cpu: await cpu.perDelivery(prefix), fanOutJobs: await fanOutJobCount(sandbox, prefix) };
}

async function benchDeliveries() {
  log(`deliveries: ${DELIVERIES} in-app deliveries (triggers enqueued with the worker stopped, then one worker) vs no-op Bull jobs`);
  const sandbox = await newSandbox('deliveries');
  const api = await apiFor(sandbox);
  try {
    const workflow = 'bench-deliveries';
    const subscriberIds = await seed(api.client, workflow);
    const rounds = [];
    const baselines = [];
    const ceilings = [];
    for (let r = 1; r <= ROUNDS; r++) {
      const backlog = await backlogRound(sandbox, api, workflow, subscriberIds, `d${r}-${RUN_ID}-`);
      rounds.push(backlog);
      const baseline = await noopBull(sandbox, r);
      baselines.push(baseline);
      log(
        `deliveries: round ${r}: ${Math.round(backlog.rate)} deliveries/s (${backlog.seconds.toFixed(2)} s; ${backlog.wallSeconds.toFixed(2)} s from worker spawn), ` +
          `no-op Bull ${Math.round(baseline.jobs_per_s)} jobs/s`,
      );
    }
    // The store-alone rounds come after all delivery rounds: the rows each writes would otherwise be
    // in the store (and its shared buffers) of every delivery round after it, as many as the worker's own.
    for (let r = 1; r <= ROUNDS; r++) {
      const store = await storeWrites(sandbox);
      ceilings.push(store);
      log(`deliveries: store alone, round ${r}: ${Math.round(store.deliveries_per_s)} deliveries/s`);
    }
    const rate = median(rounds.map((r) => r.rate));
    const baselineRate = median(baselines.map((b) => b.jobs_per_s));
    const storeRate = median(ceilings.map((c) => c.deliveries_per_s));
    const line = {
      bench: 'deliveries',
      deliveries: DELIVERIES,
      deliveries_per_s: round(rate, 0),
      seconds: round(median(rounds.map((r) => r.seconds))),
      wall_seconds_from_worker_spawn: round(median(rounds.map((r) => r.wallSeconds))),
      baseline: 'noop_bull_job',
      baseline_jobs: NOOP_JOBS,
      baseline_jobs_per_s: round(baselineRate, 0),
      ratio: round(rate / baselineRate, 3),
      // The store alone writing the same rows, no queue or logic (one statement at a time: its calls join one wave).
      store_only_per_s: round(storeRate, 0),
      store_only_vs_baseline: round(storeRate / baselineRate, 3),
      deliveries_vs_store_only: round(rate / storeRate, 3),
      // CPU per delivery (µs) of the worker process and of its PostgreSQL backends, while messages appear
      worker_cpu_us_per_delivery: cpuMedian(rounds, 'worker'),
      postgres_cpu_us_per_delivery: cpuMedian(rounds, 'postgres'),
      // ...and of the whole machine (every process), and the share of its CPU that was busy meanwhile
      machine_cpu_us_per_delivery: cpuMedian(rounds, 'machine'),
      machine_busy_share: cpuMedian(rounds, 'busyShare', 2),
      // the same for the no-op jobs (Bull's process, Redis, the rest of the machine)
      baseline_machine_cpu_us_per_job: round(median(baselines.map((b) => b.machine_cpu_us_per_job)), 0),
      baseline_machine_busy_share: round(median(baselines.map((b) => b.machine_busy_share))),
      concurrency: WORKER_CONCURRENCY,
      rounds: ROUNDS,
      rounds_per_s: rounds.map((r) => round(r.rate, 0)),
      baseline_rounds_per_s: baselines.map((b) => round(b.jobs_per_s, 0)),
      store_only_rounds_per_s: ceilings.map((c) => round(c.deliveries_per_s, 0)),
      // Per round: the store holds every earlier round's rows, so these show what its growth costs.
      worker_cpu_us_rounds: rounds.map((r) => (r.cpu ? round(r.cpu.worker, 0) : null)),
      postgres_cpu_us_rounds: rounds.map((r) => (r.cpu ? round(r.cpu.postgres, 0) : null)),
      // How the api grouped each round's triggers into fan-out jobs (it varies with its pace; bigger jobs hold more deliveries in flight).
      fanout_jobs_rounds: rounds.map((r) => r.fanOutJobs),
    };
    result(line);
    summary.deliveries = line;
  } finally {
    await api.child.stop();
  }
}

/**
 * deliveries_live: triggers sent through the api (50 connections) while a worker runs, timed from the
 * first request to the last message: the rate a user sees end to end, against no-op Bull jobs.
 */
async function benchLiveDeliveries() {
  log(`deliveries_live: ${DELIVERIES} triggers through the api while one worker delivers them`);
  const sandbox = await newSandbox('live');
  const api = await apiFor(sandbox);
  const worker = startWorker(sandbox);
  try {
    const workflow = 'bench-live';
    const subscriberIds = await seed(api.client, workflow);
    await api.client.post('/v1/events/trigger', triggerBody(workflow, subscriberIds, 'live-warmup', 0));
    await waitUntil(async () => (await countMessages(sandbox, 'live-warmup')) === 1, { timeoutMs: 60_000, what: 'the warm-up delivery' });
    const rounds = [];
    const baselines = [];
    for (let r = 1; r <= ROUNDS; r++) {
      const prefix = `live${r}-${RUN_ID}-`;
      const started = Date.now();
      // autocannon, as trigger_http: the bench's own client must not be what limits the rate.
      let counter = 0;
      let lastAnswer = started;
      const sent = await cannon({
        url: api.baseUrl,
        connections: CONNECTIONS,
        amount: DELIVERIES,
        requests: [
          {
            method: 'POST',
            path: '/v1/events/trigger',
            headers: { 'content-type': 'application/json', authorization: `ApiKey ${sandbox.apiKey}` },
            setupRequest: (req) => {
              const n = counter++;
              return { ...req, body: JSON.stringify(triggerBody(workflow, subscriberIds, `${prefix}${n}`, n)) };
            },
            onResponse: () => {
              lastAnswer = Date.now();
            },
          },
        ],
      });
      if (sent['2xx'] !== DELIVERIES)
        throw new Error(`deliveries_live: ${sent['2xx']} of ${DELIVERIES} triggers accepted (${sent.non2xx} non-2xx, ${sent.errors} errors)`);
      // to the last answer: autocannon itself resolves on its next whole-second tick
      const sentSeconds = (lastAnswer - started) / 1000;
      await waitForMessages(sandbox, prefix, DELIVERIES, { worker, timeoutMs: 60_000 + DELIVERIES * 20 });
      const [last] = await sandbox.query("SELECT max(created_at) AS at FROM messages WHERE transaction_id LIKE $1 || '%'", [prefix]);
      const seconds = (last.at.getTime() - started) / 1000;
      rounds.push({ rate: DELIVERIES / seconds, seconds, sentSeconds });
      baselines.push(await noopBull(sandbox, `live${r}`));
      log(
        `deliveries_live: round ${r}: ${Math.round(DELIVERIES / seconds)} deliveries/s (${sentSeconds.toFixed(2)} s sending), no-op Bull ${Math.round(baselines.at(-1).jobs_per_s)} jobs/s`,
      );
    }
    const rate = median(rounds.map((r) => r.rate));
    const baselineRate = median(baselines.map((b) => b.jobs_per_s));
    const line = {
      bench: 'deliveries_live',
      deliveries: DELIVERIES,
      deliveries_per_s: round(rate, 0),
      triggers_per_s: round(median(rounds.map((r) => DELIVERIES / r.sentSeconds)), 0),
      baseline: 'noop_bull_job',
      baseline_jobs_per_s: round(baselineRate, 0),
      ratio: round(rate / baselineRate, 3),
      rounds_per_s: rounds.map((r) => round(r.rate, 0)),
      baseline_rounds_per_s: baselines.map((b) => round(b.jobs_per_s, 0)),
    };
    result(line);
    summary.deliveries_live = line;
  } finally {
    await Promise.all([worker.stop(), api.child.stop()]);
  }
}

// ---------------------------------------------------------------- 3. topic fan-out

/** `count` subscribers of the fan-out workflow's environment, all members of one topic. */
async function seedFanoutTopic(sandbox, topicKey, count) {
  const [workflow] = await sandbox.query("SELECT environment_id, organization_id FROM workflows WHERE trigger_identifier = 'bench-fanout'");
  await seedTopic(sandbox, [workflow.environment_id, workflow.organization_id], topicKey, count);
}

async function benchTopicFanout() {
  log(`topic_fanout: one trigger to a topic of each size in ${TOPIC_SIZES.join(', ')} subscribers`);
  const sandbox = await newSandbox('fanout');
  const api = await apiFor(sandbox);
  const workflow = 'bench-fanout';
  await seed(api.client, workflow);
  const sizes = [];
  for (const size of TOPIC_SIZES) {
    const topicKey = `bench-topic-${size}`;
    await seedFanoutTopic(sandbox, topicKey, size);
    // A fresh worker per size: its peak RSS is that size's.
    const worker = startWorker(sandbox);
    try {
      // One warm-up delivery proves the worker is up, so the timing below excludes its start.
      const warmup = `warmup-${size}`;
      await api.client.post('/v1/events/trigger', triggerBody(workflow, ['bench-sub-0'], warmup, 0));
      await waitUntil(async () => (await countMessages(sandbox, warmup)) === 1, { timeoutMs: 60_000, what: 'the warm-up delivery' });

      const transactionId = `topic-${size}-${RUN_ID}`;
      const started = Date.now();
      await api.client.post('/v1/events/trigger', { name: workflow, to: { type: 'Topic', topicKey }, payload: { order: 1 }, transactionId });
      await waitForMessages(sandbox, transactionId, size, { worker, timeoutMs: 60_000 + size * 20, intervalMs: 250 });
      const [last] = await sandbox.query(
        'SELECT max(created_at) AS at, count(*)::int AS messages, count(*) FILTER (WHERE status = $2)::int AS sent FROM messages WHERE transaction_id = $1',
        [transactionId, 'sent'],
      );
      const seconds = (last.at.getTime() - started) / 1000;
      sizes.push({
        subscribers: size,
        seconds: round(seconds),
        deliveries_per_s: round(size / seconds, 0),
        worker_peak_rss_mb: round(worker.peakRssMb() ?? NaN, 0),
        messages: last.messages,
        messages_sent: last.sent,
      });
      log(
        `topic_fanout: ${size} subscribers in ${seconds.toFixed(2)} s (${Math.round(size / seconds)}/s), worker peak RSS ${sizes.at(-1).worker_peak_rss_mb} MB`,
      );
    } finally {
      await worker.stop();
    }
  }
  await api.child.stop();
  const [small, large] = [sizes[0], sizes.at(-1)];
  const line = {
    bench: 'topic_fanout',
    sizes,
    // Linear growth keeps the time per subscriber flat: 1.0 is perfectly linear, above it superlinear.
    time_per_subscriber_large_vs_small: round(large.seconds / large.subscribers / (small.seconds / small.subscribers)),
    deliveries_per_s: large.deliveries_per_s,
    worker_peak_rss_mb: Math.max(...sizes.map((s) => s.worker_peak_rss_mb)),
    concurrency: WORKER_CONCURRENCY,
  };
  result(line);
  summary.topic_fanout = line;
}

// ---------------------------------------------------------------- 4. noisy neighbour

async function benchNeighbour() {
  const line = await benchNoisyNeighbour({ newSandbox, apiFor, startWorker, seed, rounds: ROUNDS, connections: CONNECTIONS });
  result(line);
  summary.noisy_neighbour = line;
}

// ---------------------------------------------------------------- 5. Inbox sockets

async function benchInbox() {
  const line = await benchInboxSockets({ newSandbox, apiFor, startWorker, seed });
  result(line);
  summary.inbox_sockets = line;
}

// ---------------------------------------------------------------- 6. reads at scale

async function benchScale() {
  const line = await benchScaleReads({ newSandbox, apiFor, afterReads: backlogAtScale });
  result(line);
  summary.scale_reads = line;
}

/**
 * deliveries_at_scale: one backlog round (as in `deliveries`) on the scale phase's store, its millions
 * of rows in place, against no-op Bull: what a delivery costs once the store is large. No aim.
 */
async function backlogAtScale(sandbox, api) {
  const workflow = 'bench-deliveries';
  const subscriberIds = await seed(api.client, workflow);
  const backlog = await backlogRound(sandbox, api, workflow, subscriberIds, `s-${RUN_ID}-`);
  const baseline = await noopBull(sandbox, 1);
  const [store] = await sandbox.query('SELECT (SELECT count(*) FROM notifications)::int AS notifications, (SELECT count(*) FROM messages)::int AS messages');
  const line = {
    bench: 'deliveries_at_scale',
    deliveries: DELIVERIES,
    deliveries_per_s: round(backlog.rate, 0),
    baseline: 'noop_bull_job',
    baseline_jobs_per_s: round(baseline.jobs_per_s, 0),
    ratio: round(backlog.rate / baseline.jobs_per_s, 3),
    worker_cpu_us_per_delivery: backlog.cpu && round(backlog.cpu.worker, 0),
    postgres_cpu_us_per_delivery: backlog.cpu && round(backlog.cpu.postgres, 0),
    machine_cpu_us_per_delivery: backlog.cpu && round(backlog.cpu.machine, 0),
    baseline_machine_cpu_us_per_job: round(baseline.machine_cpu_us_per_job, 0),
    // The first round of `deliveries` in this run (an empty store), when that phase ran.
    postgres_cpu_us_first_deliveries_round: summary.deliveries?.postgres_cpu_us_rounds[0] ?? null,
    fanout_jobs: backlog.fanOutJobs,
    store_after: store,
  };
  log(
    `deliveries_at_scale: ${line.deliveries_per_s} deliveries/s, no-op Bull ${line.baseline_jobs_per_s} jobs/s, PostgreSQL ${line.postgres_cpu_us_per_delivery} µs per delivery`,
  );
  result(line);
  summary.deliveries_at_scale = line;
}

// ---------------------------------------------------------------- main

function printSummary() {
  const aims = {};
  if (summary.trigger_http) {
    aims.trigger_ge_15pct_of_bare_fastify_route = summary.trigger_http.ratio >= AIMS.trigger_vs_bare_fastify;
    aims.trigger_p99_lt_50_ms = summary.trigger_http.p99_ms < AIMS.trigger_p99_ms;
  }
  if (summary.deliveries) aims.deliveries_ge_50pct_of_noop_jobs = summary.deliveries.ratio >= AIMS.deliveries_vs_noop;
  if (summary.deliveries_live) aims.live_deliveries_ge_15pct_of_noop_jobs = summary.deliveries_live.ratio >= AIMS.live_deliveries_vs_noop;
  if (summary.topic_fanout) {
    aims.fanout_ge_3000_per_s = summary.topic_fanout.deliveries_per_s >= AIMS.fanout_deliveries_per_s;
    aims.fanout_time_linear = summary.topic_fanout.time_per_subscriber_large_vs_small <= AIMS.fanout_linear_within;
    aims.fanout_under_512_mb = summary.topic_fanout.worker_peak_rss_mb < AIMS.fanout_peak_rss_mb;
  }
  if (summary.noisy_neighbour) {
    aims.neighbour_burst_p99_le_2x_quiet = summary.noisy_neighbour.burst_vs_quiet <= AIMS.neighbour_p99_vs_quiet;
    aims.neighbour_flood_p99_le_2x_quiet = summary.noisy_neighbour.flood_vs_quiet <= AIMS.neighbour_p99_vs_quiet;
    if ('burst_limited_vs_quiet' in summary.noisy_neighbour)
      aims.neighbour_burst_limited_p99_le_2x_quiet = summary.noisy_neighbour.burst_limited_vs_quiet <= AIMS.neighbour_p99_vs_quiet;
    if ('stalled_vs_quiet' in summary.noisy_neighbour)
      aims.neighbour_stalled_p99_le_2x_quiet = summary.noisy_neighbour.stalled_vs_quiet <= AIMS.neighbour_p99_vs_quiet;
  }
  if (summary.scale_reads) {
    for (const route of ['subscribers_by_email', 'subscribers_by_name', 'messages_by_subscriber', 'notifications_by_transaction'])
      aims[`scale_${route}_p99_lt_50_ms`] = summary.scale_reads.routes[route].p99_ms < AIMS.scale_read_p99_ms;
  }
  result({ bench: 'summary', date: new Date().toISOString(), node: process.version, cpus: require('node:os').cpus().length, aims_met: aims });
}

async function cleanup() {
  killAllChildren();
  await Promise.all(sandboxes.map((sandbox) => sandbox.destroy()));
}

async function main() {
  const phases = [
    ['idle', benchIdle],
    ['http', benchHttp],
    ['deliveries', benchDeliveries],
    ['live', benchLiveDeliveries],
    ['fanout', benchTopicFanout],
    ['neighbour', benchNeighbour],
    ['inbox', benchInbox],
    ['scale', benchScale],
    ['vendors', () => benchSlowVendors({ newSandbox, apiFor, startWorker, result })],
  ];
  for (const [name, phase] of phases) {
    if (!ONLY.has(name)) continue;
    await phase();
    await sleep(500); // let the machine settle between phases
  }
  printSummary();
}

let exitCode = 0;
const guard = setTimeout(() => {
  log(`the whole run exceeded ${WHOLE_RUN_LIMIT_MS / 60_000} minutes; aborting`);
  cleanup().finally(() => process.exit(1));
}, WHOLE_RUN_LIMIT_MS);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`${signal}: cleaning up`);
    cleanup().finally(() => process.exit(130));
  });
}

main()
  .catch((error) => {
    exitCode = 1;
    log(`failed: ${error.stack || error}`);
  })
  .finally(async () => {
    await cleanup();
    clearTimeout(guard);
    process.exit(exitCode);
  });
