'use strict';
// Baseline for the delivery benchmark: how fast Bull alone runs jobs that do nothing, with the
// options the service's Bull adapter gives its jobs (id, attempts, backoff, bounded retention).
// Adds N jobs while nobody consumes, then starts one consumer with the given concurrency and
// times from process() to the N-th completion.
// Usage: node bench/noop-bull.js <redisUrl> <prefix> <queueName> <jobs> <concurrency>
// Prints one JSON line: {"jobs":…,"seconds":…,"jobs_per_s":…,"machine_cpu_us_per_job":…,"machine_busy_share":…}
// (the whole machine's CPU meanwhile, every process: this one, Redis, the rest, from /proc/stat).
const Bull = require('bull');
const { machineCpuBetween, machineCpuSeconds } = require('./support');

async function main() {
  const [redisUrl, prefix, queueName, jobsArg, concurrencyArg] = process.argv.slice(2);
  const total = Number(jobsArg);
  const concurrency = Number(concurrencyArg);
  const queue = new Bull(queueName, redisUrl, { prefix });
  const options = (i) => ({
    jobId: `noop-${i}`,
    attempts: 6,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { age: 24 * 3600, count: 50_000 },
    removeOnFail: { age: 7 * 24 * 3600, count: 50_000 },
  });
  for (let start = 0; start < total; start += 1000) {
    const batch = [];
    for (let i = start; i < Math.min(total, start + 1000); i++) batch.push({ data: { i }, opts: options(i) });
    await queue.addBulk(batch);
  }

  let completed = 0;
  let failed = 0;
  const drained = new Promise((resolve) => {
    const settle = () => completed + failed >= total && resolve();
    queue.on('completed', () => {
      completed++;
      settle();
    });
    queue.on('failed', () => {
      failed++;
      settle();
    });
  });
  const started = performance.now();
  const cpuBefore = machineCpuSeconds();
  queue.process(concurrency, async () => undefined).catch(() => undefined);
  await drained;
  const seconds = (performance.now() - started) / 1000;
  const { busy, busyShare } = machineCpuBetween(cpuBefore, machineCpuSeconds());
  const line = {
    jobs: total,
    failed,
    seconds,
    jobs_per_s: total / seconds,
    machine_cpu_us_per_job: (busy * 1e6) / total,
    machine_busy_share: busyShare,
  };
  process.stdout.write(JSON.stringify(line) + '\n');
  await queue.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
