'use strict';
// The noisy neighbour of bench/noisy-neighbour.js: environment A's load, in a process of its own so
// that the measuring process (environment B's trigger stream) keeps an idle event loop.
//   burst: <amount> valid triggers (one in-app step, distinct transactionIds) as fast as <connections> allow.
//   flood: <amount> seconds of triggers the API refuses (unknown workflow, a 10,000-character
//          subscriberId, a lone surrogate in the payload, a body that is not JSON), in rotation.
// Usage: node bench/neighbour-load.js <burst|flood> <baseUrl> <apiKey> <workflow> <amount> <connections> <transactionPrefix> [path]
// (path: /v1/events/trigger unless given; the framework-ceiling run floods bench/bare-nest.js's /bench)
// Prints "started <epoch ms>" when the load begins, then one JSON line with the status counts.
const autocannon = require('autocannon');

const SUBSCRIBERS = 10; // bench-sub-0 … bench-sub-9, as seeded by bench/run.js

function malformed(workflow) {
  return [
    JSON.stringify({ name: 'no-such-workflow', to: 'bench-sub-0', payload: { order: 1 } }),
    JSON.stringify({ name: workflow, to: 'x'.repeat(10_000), payload: { order: 1 } }),
    // JSON.stringify would escape the surrogate the same way; written out so the body is plainly what is sent
    `{"name":"${workflow}","to":"bench-sub-0","payload":{"order":"\\ud800"}}`,
    '{"name": not json',
  ];
}

async function main() {
  const [mode, url, apiKey, workflow, amountArg, connectionsArg, prefix, routePath = '/v1/events/trigger'] = process.argv.slice(2);
  const amount = Number(amountArg);
  const headers = { 'content-type': 'application/json', authorization: `ApiKey ${apiKey}` };
  let counter = 0;
  const options = { url, connections: Number(connectionsArg), timeout: 30 };
  if (mode === 'burst') {
    options.amount = amount;
    options.requests = [
      {
        method: 'POST',
        path: routePath,
        headers,
        setupRequest: (req) => {
          const n = counter++;
          const body = { name: workflow, to: `bench-sub-${n % SUBSCRIBERS}`, payload: { order: n, items: ['a', 'b'] }, transactionId: `${prefix}${n}` };
          return { ...req, body: JSON.stringify(body) };
        },
      },
    ];
  } else if (mode === 'flood') {
    options.duration = amount;
    options.requests = malformed(workflow).map((body) => ({ method: 'POST', path: routePath, headers, body }));
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  const statuses = {};
  const started = Date.now();
  process.stdout.write(`started ${started}\n`);
  const res = await new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    instance.on('response', (_client, statusCode) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
  const finished = Date.now();
  const line = {
    mode,
    requests: res.requests.total,
    seconds: (finished - started) / 1000,
    rps: res.requests.total / ((finished - started) / 1000),
    statuses,
    latency_p50_ms: res.latency.p50,
    latency_p99_ms: res.latency.p99,
    errors: res.errors,
    timeouts: res.timeouts,
    started,
    finished,
  };
  process.stdout.write(JSON.stringify(line) + '\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
