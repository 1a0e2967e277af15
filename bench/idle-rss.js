'use strict';
// idle_rss: the resident memory (VmRSS) of each kind of process, started fresh and left idle: the
// embedded process (`npm start`: PGlite in a new DATA_DIR; its first start also creates the store) and
// the same process restarted on that store, a production api and a production worker. Each is read
// after BENCH_IDLE_SECONDS of idling, BENCH_IDLE_READINGS times a second apart; the line has the median.
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const Redis = require('ioredis');
const { REDIS_URL, freePort, log, median, round, sleep, startEmbedded, startWorker, waitForHealthy, waitUntil } = require('./support');

const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS || 5);
const READINGS = Number(process.env.BENCH_IDLE_READINGS || 5);

/** VmRSS once the process has idled, READINGS times a second apart, and its peak (VmHWM) since it started. */
async function idleRss(child) {
  await sleep(IDLE_SECONDS * 1000);
  const readings = [];
  for (let i = 0; i < READINGS; i++) {
    if (i > 0) await sleep(1000);
    if (!child.running) throw new Error(`${child.name} exited while idle:\n${child.output}`);
    readings.push(child.rssMb());
  }
  return { rss_mb: round(median(readings), 0), peak_rss_mb: round(child.peakRssMb(), 0), readings_mb: readings.map((mb) => round(mb, 0)) };
}

/** Bull names each consumer's blocking connection `<prefix>:<base64(queue)>`: the worker is up once the steps queue has one. */
async function waitForConsumer(sandbox, worker) {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
  const name = `name=${sandbox.queuePrefix}:${Buffer.from('steps').toString('base64')}`;
  try {
    await waitUntil(
      async () => {
        if (!worker.running) throw new Error(`worker exited:\n${worker.output}`);
        return (await redis.client('LIST')).split(/\s/).includes(name);
      },
      { timeoutMs: 60_000, intervalMs: 200, what: 'the worker consuming the steps queue' },
    );
  } finally {
    redis.disconnect();
  }
}

async function measureEmbedded(dataDir, mode) {
  const port = await freePort();
  const child = startEmbedded(dataDir, port);
  try {
    await waitForHealthy(child, `http://127.0.0.1:${port}`);
    return { bench: 'idle_rss', mode, ...(await idleRss(child)) };
  } finally {
    await child.stop();
  }
}

async function benchIdleRss({ newSandbox, apiFor }) {
  log(`idle_rss: each process started fresh, idle ${IDLE_SECONDS} s, then ${READINGS} readings of its RSS`);
  const lines = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-embedded-'));
  try {
    lines.push(await measureEmbedded(dataDir, 'embedded'));
    lines.push(await measureEmbedded(dataDir, 'embedded_restarted'));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const sandbox = await newSandbox('idle');
  const api = await apiFor(sandbox);
  try {
    lines.push({ bench: 'idle_rss', mode: 'api', ...(await idleRss(api.child)) });
  } finally {
    await api.child.stop();
  }
  const worker = startWorker(sandbox);
  try {
    await waitForConsumer(sandbox, worker);
    lines.push({ bench: 'idle_rss', mode: 'worker', ...(await idleRss(worker)) });
  } finally {
    await worker.stop();
  }
  log(`idle_rss: ${lines.map((line) => `${line.mode} ${line.rss_mb} MB`).join(', ')}`);
  return lines;
}

module.exports = { benchIdleRss };
