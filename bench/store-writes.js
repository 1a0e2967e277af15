'use strict';
// A ceiling for the delivery benchmark: how fast the store alone takes the records of in-app
// deliveries (notification, its completed job, message and "Message sent" detail: what the worker
// writes per delivery), through the service's own SQL adapter (ChainRepository.write of new chains,
// dist/), with as many calls in flight as the worker runs jobs and the worker's pool size. The
// adapter writes them as the worker's are written: two rows (the completed job and its detail kept on
// the notification's row), the job and message sharing the notification's ids, payload object and
// creation time.
// No queue, no reads, no rendering: a delivery cannot cost the store less than this. The hundred calls
// join one statement and all wait for it, so the store runs one statement at a time (one core): the
// rate of that wave, not all the store could take with its statements side by side.
// Usage: node bench/store-writes.js <databaseUrl> <deliveries> <concurrency> <poolSize> [dist]
// Prints one JSON line: {"deliveries":…,"seconds":…,"deliveries_per_s":…}.
const path = require('node:path');
const { randomBytes } = require('node:crypto');

async function main() {
  const [databaseUrl, deliveriesArg, concurrencyArg, poolArg, distArg] = process.argv.slice(2);
  const dist = path.resolve(__dirname, '..', distArg || 'dist');
  const { createSqlClient } = require(path.join(dist, 'libs/store-sql/src/sql-client'));
  const { SqlChainRepository } = require(path.join(dist, 'libs/store-sql/src/delivery'));
  const total = Number(deliveriesArg);
  const sql = await createSqlClient({ url: databaseUrl, poolSize: Number(poolArg) });
  const chains = new SqlChainRepository(sql);
  const run = randomBytes(4).toString('hex');
  const id = (n, kind) => `${run}${kind}${String(n).padStart(24 - run.length - 1, '0')}`;

  const records = Array.from({ length: total }, (_, n) => {
    const now = new Date();
    const payload = { order: n, items: ['a', 'b'] };
    const common = { organizationId: 'bench-org', environmentId: 'bench-env', transactionId: `store-${run}-${n}`, createdAt: now, updatedAt: now };
    const notification = {
      ...common,
      id: id(n, 'n'),
      workflowId: 'bench-workflow',
      workflowIdentifier: 'bench-deliveries',
      subscriberId: `bench-sub-${n % 10}`,
      externalSubscriberId: `bench-sub-${n % 10}`,
      to: { subscriberId: `bench-sub-${n % 10}` },
      payload,
      channels: ['in_app'],
      tags: [],
      critical: false,
      topics: [],
    };
    const job = {
      ...common,
      id: id(n, 'j'),
      notificationId: notification.id,
      subscriberId: notification.subscriberId,
      externalSubscriberId: notification.externalSubscriberId,
      workflowId: notification.workflowId,
      workflowIdentifier: notification.workflowIdentifier,
      stepId: 'bench-step',
      type: 'in_app',
      status: 'completed',
      providerId: 'novu',
      payload,
      overrides: {},
      attempts: 0,
    };
    const message = {
      ...common,
      id: job.id,
      notificationId: notification.id,
      jobId: job.id,
      subscriberId: job.subscriberId,
      workflowId: job.workflowId,
      templateIdentifier: job.workflowIdentifier,
      stepId: job.stepId,
      channel: 'in_app',
      providerId: 'novu',
      status: 'sent',
      content: `Order ${n} for ${job.externalSubscriberId} is on its way`,
      read: false,
      seen: false,
      archived: false,
      deliveredAt: [now],
      payload,
      overrides: {},
      tags: [],
    };
    const detail = {
      ...common,
      id: id(n, 'd'),
      notificationId: notification.id,
      jobId: job.id,
      subscriberId: job.subscriberId,
      channel: 'in_app',
      providerId: 'novu',
      status: 'Success',
      source: 'Internal',
      detail: 'Message sent',
      raw: null,
      isRetry: false,
      isTest: false,
    };
    return { kind: 'new', notification, jobs: [job], messages: [message], details: [detail] };
  });

  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Number(concurrencyArg) }, async () => {
      while (next < records.length) await chains.write([records[next++]]);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(JSON.stringify({ deliveries: total, seconds, deliveries_per_s: total / seconds }) + '\n');
  await sql.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
