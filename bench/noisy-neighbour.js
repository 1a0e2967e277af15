'use strict';
// The noisy_neighbour phase of `npm run bench` (BENCH_ONLY=neighbour): how much environment A's load
// delays environment B's deliveries. B sends one trigger every BENCH_NEIGHBOUR_INTERVAL_MS (open loop:
// a slow answer does not delay the next request), and each trigger's latency is taken from the start of
// its request to its in-app message row being committed. That moment comes from PostgreSQL itself: an
// AFTER INSERT trigger on `messages`, added to the bench database only and firing for B's rows only,
// calls pg_notify, which PostgreSQL delivers to a LISTEN connection of this process at commit.
// Scenarios, in each round, each against the quiet stream of the same round:
//   quiet          B's stream alone
//   burst          the same while A sends BENCH_NEIGHBOUR_BURST valid triggers as fast as it can
//   flood          the same while A sends triggers the API refuses (4xx), as fast as it can
//   burst_limited  burst, on an api process with TRIGGER_RATE_LIMIT / _WINDOW_SECONDS from BENCH_NEIGHBOUR_LIMIT
//   stalled        the same while A's email provider is stalled: A sends BENCH_NEIGHBOUR_STALL triggers one
//                  after another, each an email step through an `email-webhook` integration whose URL is a
//                  server of this process that answers 200 only after the given delay (a slow vendor);
//                  the service runs with ALLOW_PRIVATE_NETWORK_TARGETS=true so it may call that loopback URL
// A's load runs in a process of its own (bench/neighbour-load.js). B's stream lasts at least
// BENCH_NEIGHBOUR_TRIGGERS triggers and until A's load, and A's deliveries, have been over for a second.
// For every B trigger the time is also split: request → fan-out job added (Bull's job timestamp), job
// waiting in the queue (→ processedOn), fan-out until the message is built (its created_at), and the
// write until committed.
const { execFile } = require('node:child_process');
const http = require('node:http');
const { readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');
const Redis = require('ioredis');
const { ApiClient, Child, DIST, REDIS_URL, RUN_ID, freePort, log, median, round, sleep, waitUntil, withTimeout } = require('./support');

const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const STREAM_TRIGGERS = num('BENCH_NEIGHBOUR_TRIGGERS', 200);
const INTERVAL_MS = num('BENCH_NEIGHBOUR_INTERVAL_MS', 50);
const BURST = num('BENCH_NEIGHBOUR_BURST', 5000);
// "<limit>/<window seconds>" for the burst_limited scenario, or "0" to leave it out
const LIMIT = process.env.BENCH_NEIGHBOUR_LIMIT ?? '1000/10';
// "<triggers>x<answer delay ms>" for the stalled scenario, or "0" to leave it out
const STALL = process.env.BENCH_NEIGHBOUR_STALL ?? '150x5000';
// a directory: each scenario's B triggers (epoch ms of each step) and A's load, as JSON, for a closer look
const TRACE_DIR = process.env.BENCH_NEIGHBOUR_TRACE;
const LEAD_MS = 1000; // B's stream runs alone this long before A starts
const TAIL_MS = 1000; // and goes on this long after A's load is over
const FLOOD_SECONDS = Math.max(1, Math.round((STREAM_TRIGGERS * INTERVAL_MS - LEAD_MS - TAIL_MS) / 1000));
const AIM_RATIO = 2;
const NOTIFY_CHANNEL = 'bench_b_messages';

const epochMs = () => performance.timeOrigin + performance.now();

/** Nearest-rank percentile. */
function percentile(values, p) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const stats = (values) => ({ p50: round(percentile(values, 50), 1), p99: round(percentile(values, 99), 1), max: round(Math.max(...values), 1) });

/** `environments:create` of the built CLI against the sandbox's database: the way an operator adds one. */
function createEnvironment(sandbox, name) {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(DIST, 'apps/cli/src/main.js'), 'environments:create', name],
      { env: sandbox.env(), timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`cli environments:create: ${error.message}\n${stderr}`));
        const id = /\(([0-9a-f]{24})[,)]/.exec(stdout)?.[1]; // "(<id>, identifier <identifier>)"
        const apiKey = /API key: (\S+)/.exec(stdout)?.[1];
        if (!id || !apiKey) return reject(new Error(`unexpected cli output: ${stdout}`));
        resolve({ id, apiKey });
      },
    );
  });
}

/** When each of B's messages was committed, as PostgreSQL reports it (NOTIFY is delivered at commit). */
class CommitWatch {
  constructor(sandbox, environmentId) {
    this.sandbox = sandbox;
    this.environmentId = environmentId;
    this.seenAt = new Map();
  }

  async start() {
    if (!/^[0-9a-f]+$/.test(this.environmentId)) throw new Error(`unexpected environment id ${this.environmentId}`);
    await this.sandbox.query(`CREATE FUNCTION bench_notify_message() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify('${NOTIFY_CHANNEL}', NEW.transaction_id); RETURN NULL; END $$`);
    await this.sandbox.query(`CREATE TRIGGER bench_notify_message AFTER INSERT ON messages FOR EACH ROW
      WHEN (NEW.environment_id = '${this.environmentId}') EXECUTE FUNCTION bench_notify_message()`);
    this.client = new Client({ connectionString: this.sandbox.databaseUrl });
    await this.client.connect();
    this.client.on('notification', ({ payload }) => {
      if (!this.seenAt.has(payload)) this.seenAt.set(payload, epochMs());
    });
    await this.client.query(`LISTEN ${NOTIFY_CHANNEL}`);
  }

  async stop() {
    await this.client?.end().catch(() => undefined);
  }
}

/** Peak length of the fan-out queue's wait list, sampled every 100 ms. */
function sampleQueueDepth(redis, queuePrefix) {
  let peak = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      peak = Math.max(peak, await redis.llen(`${queuePrefix}:fanout:wait`).catch(() => 0));
      await sleep(100);
    }
  })();
  return async () => {
    running = false;
    await done;
    return peak;
  };
}

const TICKS_PER_S = 100; // USER_HZ of /proc, 100 on Linux

/** CPU seconds a process has used so far (user + system), from /proc. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  } catch {
    return NaN;
  }
}

/** Busy and total jiffies of the whole machine, from /proc/stat. */
function machineTicks() {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const idle = values[3] + values[4]; // idle + iowait
  const total = values.reduce((sum, v) => sum + v, 0);
  return { busy: total - idle, total };
}

/** Share of a core each process used, and how busy the machine was, while the scenario ran. */
function cpuMeter(processes) {
  const wallStart = performance.now();
  const start = Object.fromEntries(Object.entries(processes).map(([name, child]) => [name, cpuSeconds(child.pid)]));
  const machineStart = machineTicks();
  return () => {
    const seconds = (performance.now() - wallStart) / 1000;
    const machine = machineTicks();
    const out = Object.fromEntries(Object.entries(processes).map(([name, child]) => [`${name}_cores`, round((cpuSeconds(child.pid) - start[name]) / seconds)]));
    out.machine_busy = round((machine.busy - machineStart.busy) / (machine.total - machineStart.total));
    return out;
  };
}

/** B's open-loop stream: one trigger every INTERVAL_MS, at least `minCount` of them, then until `stop()`. */
async function streamB({ baseUrl, apiKey, workflow, subscriberIds, prefix, minCount, stop }) {
  const sent = [];
  const t0 = performance.now();
  for (let i = 0; i < minCount || !stop(); i++) {
    const wait = t0 + i * INTERVAL_MS - performance.now();
    if (wait > 0) await sleep(wait);
    const record = { transactionId: `${prefix}${i}`, start: epochMs() };
    const body = JSON.stringify({ name: workflow, to: subscriberIds[i % subscriberIds.length], payload: { order: i }, transactionId: record.transactionId });
    record.done = fetch(`${baseUrl}/v1/events/trigger`, {
      method: 'POST',
      headers: { authorization: `ApiKey ${apiKey}`, 'content-type': 'application/json' },
      body,
    }).then(
      async (response) => {
        await response.text();
        record.status = response.status;
        record.answered = epochMs();
      },
      (error) => {
        record.error = error.message;
      },
    );
    sent.push(record);
  }
  await Promise.all(sent.map((record) => record.done));
  return sent;
}

async function countMessages(sandbox, environmentId, prefix, status) {
  const [row] = await sandbox.query(
    "SELECT count(*)::int AS n FROM messages WHERE environment_id = $1 AND transaction_id LIKE $2 || '%' AND ($3::text IS NULL OR status = $3)",
    [environmentId, prefix, status ?? null],
  );
  return row.n;
}

/** A vendor that takes `delayMs` to answer 200: the `email-webhook` integration of A posts to it. */
async function startStalledVendor(delayMs) {
  const timers = new Set();
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      }, delayMs);
      timers.add(timer);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

function parseStall(text) {
  if (text === '0' || text === '') return undefined;
  const [triggers, delayMs] = text.split('x').map(Number);
  if (!(triggers > 0) || !(delayMs > 0)) throw new Error(`BENCH_NEIGHBOUR_STALL must be "<triggers>x<delay ms>" or "0", not ${text}`);
  return { triggers, delayMs };
}

function startLoad(mode, baseUrl, env, amount, connections, prefix, routePath = '/v1/events/trigger') {
  const child = new Child(
    `neighbour-${mode}`,
    path.join(__dirname, 'neighbour-load.js'),
    [mode, baseUrl, env.apiKey, env.workflow, String(amount), String(connections), prefix, routePath],
    {
      PATH: process.env.PATH,
    },
  );
  const started = child.waitForLine(/^started /, 30_000).then((line) => Number(line.split(' ')[1]));
  const finished = child.waitForLine(/^\{/, 300_000).then((line) => JSON.parse(line));
  return { child, started, finished };
}

/** The per-trigger split of B's latency, from the queue's job records and the message rows. */
async function breakdown(sandbox, redis, b, sent, prefix) {
  const rows = await sandbox.query(
    `SELECT t.transaction_id, t.fanout_job_id, m.created_at AS built
       FROM triggers t JOIN messages m ON m.environment_id = t.environment_id AND m.transaction_id = t.transaction_id
      WHERE t.environment_id = $1 AND t.transaction_id LIKE $2 || '%'`,
    [b.id, prefix],
  );
  const jobIds = [...new Set(rows.map((row) => row.fanout_job_id))];
  const jobs = await sandbox.query(
    `SELECT fanout_job_id AS id, count(*)::int AS triggers, count(*) FILTER (WHERE environment_id <> $2)::int AS others
       FROM triggers WHERE fanout_job_id = ANY($1) GROUP BY 1`,
    [jobIds, b.id],
  );
  const jobById = new Map(jobs.map((job) => [job.id, job]));
  const pipeline = redis.pipeline();
  for (const id of jobIds) pipeline.hmget(`${sandbox.queuePrefix}:fanout:${id}`, 'timestamp', 'processedOn');
  const times = new Map(
    (await pipeline.exec()).map(([, [added, processed]], index) => [jobIds[index], { added: Number(added), processed: Number(processed) }]),
  );
  const byTransaction = new Map(sent.map((record) => [record.transactionId, record]));
  const parts = { accept_and_enqueue: [], queue_wait: [], fanout_until_built: [], write_and_commit: [] };
  let shared = 0;
  for (const row of rows) {
    const record = byTransaction.get(row.transaction_id);
    const job = times.get(row.fanout_job_id);
    if (!record?.visible || !job?.added || !job.processed) continue;
    parts.accept_and_enqueue.push(job.added - record.start);
    parts.queue_wait.push(job.processed - job.added);
    parts.fanout_until_built.push(row.built.getTime() - job.processed);
    parts.write_and_commit.push(record.visible - row.built.getTime());
    Object.assign(record, { added: job.added, processed: job.processed, built: row.built.getTime() });
    if (jobById.get(row.fanout_job_id)?.others > 0) shared++;
  }
  return {
    split_ms: Object.fromEntries(Object.entries(parts).map(([name, values]) => [name, stats(values)])),
    b_in_jobs_with_a_triggers: rows.length ? round(shared / rows.length, 2) : 0,
    b_fanout_job_triggers_max: Math.max(0, ...jobs.map((job) => job.triggers)),
  };
}

/**
 * One scenario: B's stream on `api`, with A's load (if any) starting LEAD_MS in. Returns B's
 * latencies (request start → message committed) and what A did.
 */
async function scenario(ctx, name, roundNo, { load, api = ctx.api, minCount = STREAM_TRIGGERS, burst = BURST } = {}) {
  const { sandbox, redis, watch, a, b } = ctx;
  const prefix = `nn-${name}-r${roundNo}-${RUN_ID}-`;
  const aPrefix = `${prefix}a-`;
  let loadOverAt = load ? undefined : 0;
  let loadError;
  let neighbour;
  const stopDepth = sampleQueueDepth(redis, sandbox.queuePrefix);
  const cpu = cpuMeter({ api: api.child, worker: ctx.worker });
  const loadTask = (async () => {
    if (!load) return;
    await sleep(LEAD_MS);
    if (load === 'flood') {
      const run = startLoad('flood', api.baseUrl, a, FLOOD_SECONDS, ctx.connections, aPrefix);
      neighbour = { started: await run.started, ...(await run.finished) };
      await withTimeout(run.child.exited, 30_000, 'neighbour-load exit');
      const unexpected = Object.keys(neighbour.statuses).filter((status) => status < 400 || status >= 500);
      if (unexpected.length) log(`noisy_neighbour: the flood got statuses it should not: ${JSON.stringify(neighbour.statuses)}`);
    } else if (load === 'stalled') {
      const started = Date.now();
      for (let n = 0; n < ctx.stall.triggers; n++) {
        const subscriberId = `stall-sub-${n % 10}`;
        await ctx.aClient.post('/v1/events/trigger', {
          name: a.emailWorkflow,
          to: { subscriberId, email: `${subscriberId}@example.com` },
          payload: { order: n },
          transactionId: `${aPrefix}${n}`,
        });
      }
      neighbour = { started, requests: ctx.stall.triggers, seconds: (Date.now() - started) / 1000, statuses: { 201: ctx.stall.triggers } };
      neighbour.rps = neighbour.requests / neighbour.seconds;
      await waitUntil(async () => (await countMessages(sandbox, a.id, aPrefix, 'sent')) >= ctx.stall.triggers, {
        timeoutMs: 120_000 + ctx.stall.triggers * ctx.stall.delayMs,
        intervalMs: 100,
        what: `A's ${ctx.stall.triggers} emails`,
      });
      neighbour.delivered = Date.now();
    } else {
      const run = startLoad('burst', api.baseUrl, a, burst, ctx.connections, aPrefix);
      neighbour = { started: await run.started, ...(await run.finished) };
      await withTimeout(run.child.exited, 30_000, 'neighbour-load exit');
      const accepted = neighbour.statuses[201] ?? 0;
      await waitUntil(async () => (await countMessages(sandbox, a.id, aPrefix)) >= accepted, {
        timeoutMs: 120_000,
        intervalMs: 100,
        what: `A's ${accepted} in-app messages`,
      });
      neighbour.delivered = Date.now();
    }
  })().then(
    () => (loadOverAt = epochMs()),
    (error) => {
      loadError = error;
      loadOverAt = epochMs();
    },
  );
  const sent = await streamB({
    baseUrl: api.baseUrl,
    apiKey: b.apiKey,
    workflow: b.workflow,
    subscriberIds: b.subscriberIds,
    prefix,
    minCount,
    stop: () => loadOverAt !== undefined && epochMs() > loadOverAt + TAIL_MS,
  });
  await loadTask;
  if (loadError) throw loadError;
  const accepted = sent.filter((record) => record.status === 201);
  await waitUntil(() => accepted.every((record) => watch.seenAt.has(record.transactionId)), {
    timeoutMs: 120_000,
    intervalMs: 50,
    what: `B's ${accepted.length} in-app messages (${name})`,
  });
  const fanoutWaitPeak = await stopDepth();
  const cpuUse = cpu();
  for (const record of accepted) record.visible = watch.seenAt.get(record.transactionId);
  const latencies = accepted.map((record) => record.visible - record.start);
  const answered = accepted.map((record) => record.answered - record.start);
  const split = await breakdown(sandbox, redis, b, accepted, prefix);
  const out = {
    b_triggers: sent.length,
    b_refused: sent.length - accepted.length,
    b_refused_statuses: [...new Set(sent.filter((r) => r.status !== 201).map((r) => r.status ?? r.error))],
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: Math.max(...latencies),
    http_p99: percentile(answered, 99),
    fanout_wait_peak_jobs: fanoutWaitPeak,
    cpu: cpuUse,
    ...split,
  };
  if (neighbour) {
    out.a = {
      requests: neighbour.requests,
      rps: round(neighbour.rps, 0),
      statuses: neighbour.statuses,
      send_seconds: round(neighbour.seconds),
      http_p50_ms: neighbour.latency_p50_ms,
      http_p99_ms: neighbour.latency_p99_ms,
      ...(neighbour.delivered ? { delivered_seconds: round((neighbour.delivered - neighbour.started) / 1000) } : {}),
    };
  }
  log(
    `noisy_neighbour: round ${roundNo} ${name}: B p50 ${out.p50.toFixed(1)} ms, p99 ${out.p99.toFixed(1)} ms (${accepted.length} triggers` +
      `${out.b_refused ? `, ${out.b_refused} refused: ${out.b_refused_statuses.join(', ')}` : ''}), queue wait p99 ${out.split_ms.queue_wait.p99} ms, fan-out wait list peak ${fanoutWaitPeak} jobs` +
      (out.a
        ? `; A ${out.a.requests} requests at ${out.a.rps}/s ${JSON.stringify(out.a.statuses)}${out.a.delivered_seconds ? `, delivered ${out.a.delivered_seconds} s after its start` : ''}`
        : ''),
  );
  if (TRACE_DIR) {
    const trace = { scenario: name, round: roundNo, neighbour, b: accepted.map(({ done, ...record }) => record) };
    writeFileSync(path.join(TRACE_DIR, `${name}-r${roundNo}.json`), JSON.stringify(trace));
  }
  return out;
}

/**
 * The framework's own ceiling: B's open-loop stream of POSTs against a bare Nest route
 * (bench/bare-nest.js: no guard, validation, store or queue), alone and while A floods the same
 * process with the flood scenario's load. What sharing one event loop costs before any of the
 * service's work: its p99 ratio is the floor under the service's `flood` HTTP ratio.
 */
async function bareCeilingRound(bareUrl, env, connections, roundNo) {
  const stream = async (stop) => {
    const sent = [];
    const t0 = performance.now();
    for (let i = 0; i < STREAM_TRIGGERS || !stop(); i++) {
      const wait = t0 + i * INTERVAL_MS - performance.now();
      if (wait > 0) await sleep(wait);
      const record = { start: epochMs() };
      record.done = fetch(`${bareUrl}/bench`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'b', to: 'b', payload: { order: i } }),
      }).then(
        async (response) => {
          await response.text();
          record.answered = epochMs();
        },
        () => undefined,
      );
      sent.push(record);
    }
    await Promise.all(sent.map((record) => record.done));
    return percentile(
      sent.filter((record) => record.answered).map((record) => record.answered - record.start),
      99,
    );
  };
  const quiet = await stream(() => true);
  await sleep(500);
  let overAt;
  const load = (async () => {
    await sleep(LEAD_MS);
    const run = startLoad('flood', bareUrl, env, FLOOD_SECONDS, connections, 'bare-', '/bench');
    await run.finished;
    await withTimeout(run.child.exited, 30_000, 'neighbour-load exit');
  })().finally(() => (overAt = epochMs()));
  const flood = await stream(() => overAt !== undefined && epochMs() > overAt + TAIL_MS);
  await load;
  log(
    `noisy_neighbour: round ${roundNo} bare Nest route: B HTTP p99 ${quiet.toFixed(1)} ms alone, ${flood.toFixed(1)} ms during the flood (${(flood / quiet).toFixed(2)}x)`,
  );
  return { quiet, flood };
}

function parseLimit(text) {
  if (text === '0' || text === '') return undefined;
  const [limit, windowSeconds] = text.split('/').map(Number);
  if (!(limit > 0) || !(windowSeconds > 0)) throw new Error(`BENCH_NEIGHBOUR_LIMIT must be "<limit>/<window seconds>" or "0", not ${text}`);
  return { limit, windowSeconds };
}

/** Medians over rounds of the numbers in like-shaped objects; a number missing in a round (e.g. no 429 in it) counts as 0. */
function medianOf(values) {
  const sample = values.find((value) => value !== undefined);
  if (typeof sample === 'number') return round(median(values.map((value) => value ?? 0)), 2);
  if (sample && typeof sample === 'object') {
    const keys = [...new Set(values.flatMap((value) => Object.keys(value ?? {})))];
    return Object.fromEntries(keys.map((key) => [key, medianOf(values.map((value) => value?.[key]))]));
  }
  return sample;
}

/**
 * The phase, with bench/run.js's helpers: newSandbox (dropped by the run), apiFor, startWorker and
 * seed (an in-app workflow and 10 subscribers). Returns the result line.
 */
async function benchNoisyNeighbour({ newSandbox, apiFor, startWorker, seed, rounds, connections }) {
  const limit = parseLimit(LIMIT);
  const stall = parseStall(STALL);
  const serviceEnv = stall ? { ALLOW_PRIVATE_NETWORK_TARGETS: 'true' } : {};
  log(
    `noisy_neighbour: environment B sends a trigger every ${INTERVAL_MS} ms (≥ ${STREAM_TRIGGERS}); alone, during A's burst of ${BURST} triggers, ` +
      `during A's ${FLOOD_SECONDS} s flood of refused triggers${limit ? `, during the burst with a limit of ${limit.limit} per ${limit.windowSeconds} s` : ''}` +
      `${stall ? `, while ${stall.triggers} of A's emails wait ${stall.delayMs} ms each for their vendor` : ''}; ${rounds} rounds`,
  );
  const sandbox = await newSandbox('neighbour');
  const barePort = await freePort();
  let bare;
  const api = await apiFor(sandbox, serviceEnv);
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
  let limitedApi;
  let worker;
  let watch;
  let vendor;
  try {
    const aWorkflow = 'bench-neighbour-a';
    const bWorkflow = 'bench-neighbour-b';
    await seed(api.client, aWorkflow);
    const created = await createEnvironment(sandbox, 'Neighbour B');
    const bClient = new ApiClient(api.baseUrl, created.apiKey);
    const bSubscribers = await seed(bClient, bWorkflow);
    const [aEnv] = await sandbox.query('SELECT environment_id AS id FROM workflows WHERE trigger_identifier = $1', [aWorkflow]);
    const ctx = {
      sandbox,
      redis,
      api,
      connections,
      a: { id: aEnv.id, apiKey: sandbox.apiKey, workflow: aWorkflow, emailWorkflow: 'bench-neighbour-a-email' },
      aClient: api.client,
      stall,
      b: { id: created.id, apiKey: created.apiKey, workflow: bWorkflow, subscriberIds: bSubscribers },
    };
    watch = new CommitWatch(sandbox, created.id);
    await watch.start();
    ctx.watch = watch;
    if (stall) {
      vendor = await startStalledVendor(stall.delayMs);
      await api.client.post('/v1/integrations', {
        providerId: 'email-webhook',
        channel: 'email',
        identifier: 'bench-stalled-vendor',
        credentials: { webhookUrl: vendor.url, secretKey: 'bench', from: 'bench@example.com', senderName: 'Bench' },
        active: true,
      });
      await api.client.post('/v1/workflows', {
        name: ctx.a.emailWorkflow,
        identifier: ctx.a.emailWorkflow,
        active: true,
        steps: [{ template: { type: 'email', subject: 'Order {{payload.order}}', content: 'Order {{payload.order}} is on its way' } }],
      });
    }
    if (limit) {
      limitedApi = await apiFor(sandbox, {
        ...serviceEnv,
        TRIGGER_RATE_LIMIT: String(limit.limit),
        TRIGGER_RATE_LIMIT_WINDOW_SECONDS: String(limit.windowSeconds),
      });
    }
    worker = startWorker(sandbox, serviceEnv);
    ctx.worker = worker;
    bare = new Child('bare-nest', path.join(__dirname, 'bare-nest.js'), [String(barePort)], { PATH: process.env.PATH });
    await bare.waitForLine(/^listening/, 30_000);

    log('noisy_neighbour: warm-up (a short burst with the stream, on each api process)');
    await scenario(ctx, 'warmup', 0, { load: 'burst', minCount: 40, burst: Math.min(500, BURST) });
    if (limitedApi) await scenario(ctx, 'warmup_limited', 0, { load: 'burst', api: limitedApi, minCount: 40, burst: Math.min(500, BURST) });
    // Both api processes count in the same Redis keys; the limited scenario starts each round on fresh windows.
    const freshWindows = () => redis.del(...[ctx.a.id, ctx.b.id].map((id) => `${sandbox.queuePrefix}:ratelimit:trigger:${id}`));

    const results = [];
    for (let r = 1; r <= rounds; r++) {
      const quiet = await scenario(ctx, 'quiet', r);
      await sleep(500);
      const burst = await scenario(ctx, 'burst', r, { load: 'burst' });
      await sleep(500);
      const flood = await scenario(ctx, 'flood', r, { load: 'flood' });
      await sleep(500);
      if (limitedApi) await freshWindows();
      const limited = limitedApi ? await scenario(ctx, 'burst_limited', r, { load: 'burst', api: limitedApi }) : undefined;
      if (limited) await sleep(500);
      // last: A's emails are all answered before the scenario ends, so nothing of them is left for the next round
      const stalled = stall ? await scenario(ctx, 'stalled', r, { load: 'stalled' }) : undefined;
      if (!worker.running) throw new Error(`worker exited:\n${worker.output}`);
      const ceiling = await bareCeilingRound(`http://127.0.0.1:${barePort}`, ctx.a, connections, r);
      results.push({ quiet, burst, flood, limited, stalled, ceiling });
      await sleep(500);
    }

    const per = (key) => results.map((r) => r[key]).filter(Boolean);
    const ratio = (key) => results.map((r) => r[key].p99 / r.quiet.p99);
    const burstVsQuiet = median(ratio('burst'));
    const floodVsQuiet = median(ratio('flood'));
    const line = {
      bench: 'noisy_neighbour',
      quiet_p50_ms: round(median(per('quiet').map((s) => s.p50)), 1),
      quiet_p99_ms: round(median(per('quiet').map((s) => s.p99)), 1),
      burst_p50_ms: round(median(per('burst').map((s) => s.p50)), 1),
      burst_p99_ms: round(median(per('burst').map((s) => s.p99)), 1),
      flood_p50_ms: round(median(per('flood').map((s) => s.p50)), 1),
      flood_p99_ms: round(median(per('flood').map((s) => s.p99)), 1),
      burst_vs_quiet: round(burstVsQuiet),
      flood_vs_quiet: round(floodVsQuiet),
      aim: `<= ${AIM_RATIO}x`,
      // B's HTTP answer alone (request → 201), flood vs quiet: the service, and a bare Nest route under the same flood
      flood_http_vs_quiet: round(median(results.map((r) => r.flood.http_p99 / r.quiet.http_p99))),
      burst_http_vs_quiet: round(median(results.map((r) => r.burst.http_p99 / r.quiet.http_p99))),
      bare_route_flood_http_vs_quiet: round(median(results.map((r) => r.ceiling.flood / r.ceiling.quiet))),
      bare_route_http_p99_ms: { quiet: round(median(results.map((r) => r.ceiling.quiet)), 1), flood: round(median(results.map((r) => r.ceiling.flood)), 1) },
      ...(limitedApi
        ? {
            burst_limited_p50_ms: round(median(per('limited').map((s) => s.p50)), 1),
            burst_limited_p99_ms: round(median(per('limited').map((s) => s.p99)), 1),
            burst_limited_vs_quiet: round(median(ratio('limited'))),
            limit: `${limit.limit} per ${limit.windowSeconds} s (TRIGGER_RATE_LIMIT, _WINDOW_SECONDS) on A and B`,
          }
        : {}),
      ...(stall
        ? {
            stalled_p50_ms: round(median(per('stalled').map((s) => s.p50)), 1),
            stalled_p99_ms: round(median(per('stalled').map((s) => s.p99)), 1),
            stalled_vs_quiet: round(median(ratio('stalled'))),
            stall: `${stall.triggers} of A's email triggers, one after another, their vendor answering after ${stall.delayMs} ms`,
          }
        : {}),
      latency: 'B request start to its message row committed (pg NOTIFY at commit); ratios are of p99s, per round, then the median',
      b_interval_ms: INTERVAL_MS,
      b_triggers_min: STREAM_TRIGGERS,
      a_burst: BURST,
      a_flood_seconds: FLOOD_SECONDS,
      connections,
      rounds,
      rounds_quiet_p99_ms: per('quiet').map((s) => round(s.p99, 1)),
      rounds_burst_p99_ms: per('burst').map((s) => round(s.p99, 1)),
      rounds_flood_p99_ms: per('flood').map((s) => round(s.p99, 1)),
      rounds_burst_vs_quiet: ratio('burst').map((v) => round(v)),
      rounds_flood_vs_quiet: ratio('flood').map((v) => round(v)),
      ...(limitedApi ? { rounds_burst_limited_vs_quiet: ratio('limited').map((v) => round(v)) } : {}),
      ...(stall ? { rounds_stalled_vs_quiet: ratio('stalled').map((v) => round(v)) } : {}),
      b_refused: results.reduce(
        (sum, r) => sum + r.quiet.b_refused + r.burst.b_refused + r.flood.b_refused + (r.limited?.b_refused ?? 0) + (r.stalled?.b_refused ?? 0),
        0,
      ),
      // medians over rounds of each scenario's details: B's HTTP answer, the split of its latency, A's load
      quiet: medianOf(per('quiet').map(details)),
      burst: medianOf(per('burst').map(details)),
      flood: medianOf(per('flood').map(details)),
      ...(limitedApi ? { burst_limited: medianOf(per('limited').map(details)) } : {}),
      ...(stall ? { stalled: medianOf(per('stalled').map(details)) } : {}),
    };
    return line;
  } finally {
    await watch?.stop();
    await worker?.stop();
    await vendor?.close();
    await limitedApi?.child.stop();
    await bare?.stop();
    await api.child.stop();
    redis.disconnect();
  }
}

function details(s) {
  const { b_triggers, http_p99, fanout_wait_peak_jobs, cpu, split_ms, b_in_jobs_with_a_triggers, b_fanout_job_triggers_max, a } = s;
  return {
    b_triggers,
    b_http_p99_ms: round(http_p99, 1),
    split_ms,
    fanout_wait_peak_jobs,
    b_in_jobs_with_a_triggers,
    b_fanout_job_triggers_max,
    cpu,
    ...(a ? { a } : {}),
  };
}

module.exports = { benchNoisyNeighbour };
