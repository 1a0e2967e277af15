'use strict';
// Shared plumbing of the benchmarks: child processes that are always cleaned up, a throwaway
// PostgreSQL database and Redis prefix, a small API client, and statistics.
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { appendFileSync, readFileSync } = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { Client } = require('pg');
const Redis = require('ioredis');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.resolve(ROOT, process.env.BENCH_DIST || 'dist');
const PG_ADMIN_URL = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
const RUN_ID = randomBytes(4).toString('hex');

/** Progress goes to stderr; stdout carries only the machine-readable result lines. */
function log(message) {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

// A closed stdout (e.g. `npm run bench | head -1`) must not kill the run before it cleans up.
process.stdout.on('error', () => undefined);

function result(line) {
  process.stdout.write(JSON.stringify(line) + '\n');
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${Math.round(ms / 1000)} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `check` until it returns a truthy value; fails after `timeoutMs`. */
async function waitUntil(check, { timeoutMs, intervalMs = 100, what }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    await sleep(intervalMs);
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const round = (value, digits = 2) => Number(value.toFixed(digits));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------- child processes

const children = new Set();
// BENCH_CHILD_LOG=/tmp/child: every child's whole output is also appended to /tmp/child.<name>.<pid>
// (e.g. with BENCH_SERVICE_NODE_ARGS=--trace-gc-nvp, the worker's scavenges).
const CHILD_LOG = process.env.BENCH_CHILD_LOG;

/** A child node process; its output is kept (last 64 KB) for error reports. */
class Child {
  constructor(name, script, args, env, nodeArgs = []) {
    this.name = name;
    this.output = '';
    this.proc = spawn(process.execPath, [...nodeArgs, script, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.pid = this.proc.pid;
    this.exited = new Promise((resolve) => this.proc.once('exit', (code, signal) => resolve({ code, signal })));
    this.exitInfo = undefined;
    this.exited.then((info) => {
      this.exitInfo = info;
      children.delete(this);
    });
    const keep = (chunk) => {
      if (CHILD_LOG) appendFileSync(`${CHILD_LOG}.${this.name}.${this.pid}`, chunk);
      this.output = (this.output + chunk.toString()).slice(-65536);
    };
    this.proc.stdout.on('data', keep);
    this.proc.stderr.on('data', keep);
    children.add(this);
  }

  get running() {
    return this.exitInfo === undefined;
  }

  /** Resolves with the first stdout line matching `pattern`; rejects if the process exits first. */
  waitForLine(pattern, timeoutMs) {
    return withTimeout(
      new Promise((resolve, reject) => {
        let buffer = '';
        const onData = (chunk) => {
          buffer += chunk.toString();
          const lines = buffer.split('\n');
          buffer = lines.pop();
          const hit = lines.find((line) => pattern.test(line));
          if (hit) {
            this.proc.stdout.off('data', onData);
            resolve(hit);
          }
        };
        this.proc.stdout.on('data', onData);
        this.exited.then((info) => reject(new Error(`${this.name} exited (${info.code ?? info.signal}):\n${this.output}`)));
      }),
      timeoutMs,
      `${this.name} start`,
    );
  }

  /** Peak resident set size (VmHWM), in MB; undefined once the process is gone. */
  peakRssMb() {
    return this.statusMb('VmHWM');
  }

  /** Resident set size now (VmRSS), in MB; undefined once the process is gone. */
  rssMb() {
    return this.statusMb('VmRSS');
  }

  statusMb(field) {
    try {
      const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const kb = Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1]);
      return Number.isFinite(kb) ? kb / 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  /** SIGTERM (graceful shutdown), then SIGKILL after `graceMs`. */
  async stop(graceMs = 10_000) {
    if (!this.running) return this.exitInfo;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.running && this.proc.kill('SIGKILL'), graceMs);
    const info = await this.exited;
    clearTimeout(timer);
    return info;
  }
}

function killAllChildren() {
  for (const child of children) if (child.running) child.proc.kill('SIGKILL');
}

// ---------------------------------------------------------------- stores

// e.g. BENCH_SERVICE_ENV="WORKER_CONCURRENCY=40" to try settings on the service's processes.
const SERVICE_ENV = Object.fromEntries(
  (process.env.BENCH_SERVICE_ENV || '')
    .split(' ')
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);

/** A fresh PostgreSQL database and Redis key prefix for one benchmark phase. */
class Sandbox {
  constructor(phase) {
    this.database = `bench_${RUN_ID}_${phase}`;
    this.queuePrefix = `bench_${RUN_ID}_${phase}`;
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${this.database}`;
    this.databaseUrl = url.toString();
    this.apiKey = `bench_${randomBytes(16).toString('hex')}`;
    this.encryptionKey = randomBytes(32).toString('hex');
  }

  async create() {
    await adminQuery(`CREATE DATABASE ${this.database}`);
    this.created = true;
    this.sql = new Client({ connectionString: this.databaseUrl });
    await this.sql.connect();
  }

  /**
   * True when none of the worker's pipeline queues has a job waiting, running, delayed or paused: four
   * Redis lengths per queue, so the benches poll this rather than count rows with a scan that would
   * share the machine with what they measure.
   */
  async queuesIdle() {
    this.redis ??= new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
    const keys = ['fanout', 'steps'].flatMap((queue) => ['wait', 'active', 'delayed', 'paused'].map((list) => `${this.queuePrefix}:${queue}:${list}`));
    const lengths = await this.redis.pipeline(keys.map((key) => (key.endsWith(':delayed') ? ['zcard', key] : ['llen', key]))).exec();
    return lengths.every(([error, length]) => !error && length === 0);
  }

  async query(text, params) {
    return (await this.sql.query(text, params)).rows;
  }

  /** Production-mode environment for the service's processes. */
  env(extra = {}) {
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: this.databaseUrl,
      REDIS_URL,
      QUEUE_PREFIX: this.queuePrefix,
      STORE_ENCRYPTION_KEY: this.encryptionKey,
      BOOTSTRAP_API_KEY: this.apiKey,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      // The benches push one environment past the default limit; a high one still measures the guard's cost.
      TRIGGER_RATE_LIMIT: '100000000',
      ...SERVICE_ENV,
      ...extra,
    };
  }

  async destroy() {
    await this.sql?.end().catch(() => undefined);
    this.redis?.disconnect();
    if (this.created) await adminQuery(`DROP DATABASE IF EXISTS ${this.database} WITH (FORCE)`).catch((e) => log(`drop ${this.database}: ${e.message}`));
    await deleteRedisKeys(`${this.queuePrefix}*`);
  }
}

async function adminQuery(text) {
  const client = new Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function deleteRedisKeys(pattern) {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
  } catch (error) {
    log(`redis cleanup of ${pattern}: ${error.message}`);
  } finally {
    redis.disconnect();
  }
}

// ---------------------------------------------------------------- the service

// e.g. BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the api and worker.
const SERVICE_NODE_ARGS = (process.env.BENCH_SERVICE_NODE_ARGS || '').split(' ').filter(Boolean);

/** `extra`: more environment for this api process only (e.g. a trigger rate limit). */
function startApi(sandbox, port, extra = {}) {
  return new Child('api', path.join(DIST, 'apps/api/src/main.js'), ['--mode=api'], sandbox.env({ ...extra, PORT: String(port) }), SERVICE_NODE_ARGS);
}

/**
 * The embedded mode as `npm start` runs it (one process, PGlite in `dataDir`, no PostgreSQL or Redis);
 * `SERVICE_ENV` and `SERVICE_NODE_ARGS` apply as to the api.
 */
function startEmbedded(dataDir, port) {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...SERVICE_ENV };
  return new Child('embedded', path.join(DIST, 'apps/api/src/main.js'), [], env, SERVICE_NODE_ARGS);
}

/** The Node options `npm run start:worker` gives the worker: the bench starts it as a user does. */
const WORKER_NODE_ARGS = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
  .scripts['start:worker'].split(/\s+/)
  .filter((arg) => arg.startsWith('--'));

function startWorker(sandbox, extra = {}) {
  return new Child('worker', path.join(DIST, 'apps/worker/src/main.js'), [], sandbox.env(extra), [...WORKER_NODE_ARGS, ...SERVICE_NODE_ARGS]);
}

/** Minimal client of the service's REST API. */
class ApiClient {
  constructor(baseUrl, apiKey) {
    this.baseUrl = baseUrl;
    this.apiKey = apiKey;
  }

  async request(method, pathname, body, expected = [200, 201]) {
    const response = await fetch(this.baseUrl + pathname, {
      method,
      headers: { authorization: `ApiKey ${this.apiKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!expected.includes(response.status)) throw new Error(`${method} ${pathname} → ${response.status}: ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : undefined;
  }

  post(pathname, body) {
    return this.request('POST', pathname, body);
  }
}

async function waitForHealthy(child, baseUrl, timeoutMs = 60_000) {
  await waitUntil(
    async () => {
      if (!child.running) throw new Error(`${child.name} exited (${child.exitInfo.code ?? child.exitInfo.signal}):\n${child.output}`);
      try {
        return (await fetch(`${baseUrl}/v1/health-check`)).ok;
      } catch {
        return false;
      }
    },
    { timeoutMs, intervalMs: 200, what: `${child.name} health check` },
  );
}

/** Runs `work(item)` over `items` with at most `concurrency` in flight. */
async function pool(items, concurrency, work) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index], index);
    }
  });
  await Promise.all(lanes);
}

const CLOCK_TICKS = 100; // USER_HZ on Linux: the unit of /proc's CPU times

/** CPU seconds (user + system) a process has used so far, from /proc; 0 once it is gone. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** The whole machine's CPU so far (every core, every process), in seconds: busy, and idle (waiting on I/O included). */
function machineCpuSeconds() {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { busy: (user + nice + system + irq + softirq + (steal || 0)) / CLOCK_TICKS, idle: (idle + iowait) / CLOCK_TICKS };
}

/** Between two machineCpuSeconds readings: the busy CPU seconds, and the share of the machine's CPU they were. */
function machineCpuBetween(before, after) {
  const busy = after.busy - before.busy;
  const idle = after.idle - before.idle;
  return { busy, busyShare: busy / (busy + idle) };
}

/**
 * `count` subscribers, all members of one topic of the environment `scope` ([environment id,
 * organization id]), written in SQL (creating them through the API is not what is measured);
 * `contacts`: each with an email address and a phone number.
 */
async function seedTopic(sandbox, scope, topicKey, count, { contacts = false } = {}) {
  await sandbox.query(`INSERT INTO topics (id, organization_id, environment_id, key, name, created_at, updated_at) VALUES ($3, $2, $1, $3, $3, now(), now())`, [
    ...scope,
    topicKey,
  ]);
  await sandbox.query(
    contacts
      ? `INSERT INTO subscribers (id, organization_id, environment_id, subscriber_id, email, phone, created_at, updated_at)
         SELECT $3 || '-s' || i, $2, $1, $3 || '-' || i, $3 || '-' || i || '@example.com', '+1555' || lpad(i::text, 7, '0'), now(), now()
         FROM generate_series(1, $4::int) AS i`
      : `INSERT INTO subscribers (id, organization_id, environment_id, subscriber_id, created_at, updated_at)
         SELECT $3 || '-s' || i, $2, $1, $3 || '-' || i, now(), now() FROM generate_series(1, $4::int) AS i`,
    [...scope, topicKey, count],
  );
  await sandbox.query(
    `INSERT INTO topic_subscriptions (id, organization_id, environment_id, topic_id, topic_key, subscriber_internal_id, subscriber_id, created_at, updated_at)
     SELECT $3 || '-m' || i, $2, $1, $3, $3, $3 || '-s' || i, $3 || '-' || i, now(), now() FROM generate_series(1, $4::int) AS i`,
    [...scope, topicKey, count],
  );
  await sandbox.query('ANALYZE');
}

module.exports = {
  ApiClient,
  Child,
  DIST,
  REDIS_URL,
  RUN_ID,
  Sandbox,
  cpuSeconds,
  freePort,
  killAllChildren,
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
  startEmbedded,
  startWorker,
  waitForHealthy,
  waitUntil,
  withTimeout,
};
