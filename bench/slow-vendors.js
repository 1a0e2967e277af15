'use strict';
// The slow_vendors phase of `npm run bench` (BENCH_ONLY=vendors): deliveries that call a vendor. One
// loopback fake in this process answers SendGrid's mail send and Twilio's message create after
// BENCH_VENDOR_DELAY_MS (100) and allows a number of requests a second (a one-second window), answering
// 429 with `Retry-After: 1` above it. One trigger to a topic of BENCH_VENDOR_SUBSCRIBERS (10,000)
// subscribers, per scenario, each measured from the trigger to the last message sent:
//   in_app             the same topic through an in-app step: the baseline of the run
//   email_unlimited    SendGrid, the vendor allowing everything, no integration limit
//   email_limited      SendGrid, the vendor allowing BENCH_VENDOR_LIMIT (500)/s, the integration's rateLimit the same
//   email_pushback     SendGrid, the vendor allowing BENCH_VENDOR_LIMIT/s, no integration limit: only its 429s slow the sends
//   sms_limited        Twilio, the vendor allowing BENCH_VENDOR_LIMIT/s, the integration's rateLimit the same
// Each prints one JSON line: deliveries/s, seconds to the last message, messages failed, vendor requests
// (and 429s) made, the worker's peak RSS, and the in-app rate of the same run beside it.
const http = require('node:http');
const { log, round, seedTopic, waitUntil } = require('./support');

const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const SUBSCRIBERS = num('BENCH_VENDOR_SUBSCRIBERS', 10000);
const DELAY_MS = num('BENCH_VENDOR_DELAY_MS', 100);
const LIMIT = num('BENCH_VENDOR_LIMIT', 500);
const SCENARIOS = (process.env.BENCH_VENDOR_SCENARIOS || 'in_app,email_unlimited,email_limited,email_pushback,sms_limited').split(',');
const ACCOUNT_SID = `AC${'0'.repeat(32)}`;

/** SendGrid and Twilio on one loopback port: a slow vendor with a per-second allowance. */
class SlowVendor {
  constructor() {
    this.allowed = Infinity;
    this.reset();
    this.server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        this.requests++;
        const second = Math.floor(Date.now() / 1000);
        if (second !== this.second) [this.second, this.inSecond] = [second, 0];
        if (++this.inSecond > this.allowed) {
          this.refused++;
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"errors":[{"message":"too many requests"}]}');
          return;
        }
        setTimeout(() => {
          this.accepted++;
          if (req.url.startsWith('/v3/mail/send')) res.writeHead(202, { 'x-message-id': `sg-${this.accepted}` }).end();
          else res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid: `SM${this.accepted}`, status: 'queued' }));
        }, DELAY_MS);
      });
    });
  }
  reset() {
    [this.requests, this.accepted, this.refused, this.second, this.inSecond] = [0, 0, 0, 0, 0];
  }
  listen() {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${this.server.address().port}`)));
  }
  close() {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(resolve));
  }
}

async function benchSlowVendors({ newSandbox, apiFor, startWorker, result }) {
  log(`slow_vendors: one trigger to ${SUBSCRIBERS} subscribers per scenario, vendors answering after ${DELAY_MS} ms (${SCENARIOS.join(', ')})`);
  const vendor = new SlowVendor();
  const origin = await vendor.listen();
  const sandbox = await newSandbox('vendors');
  const env = { ALLOW_PRIVATE_NETWORK_TARGETS: 'true' };
  const api = await apiFor(sandbox, env);
  const worker = startWorker(sandbox, env);
  const topicKey = 'bench-vendors';
  const lines = [];
  try {
    const [environment] = await sandbox.query('SELECT id, organization_id FROM environments ORDER BY created_at LIMIT 1');
    await seedTopic(sandbox, [environment.id, environment.organization_id], topicKey, SUBSCRIBERS, { contacts: true });
    const integration = (body) => api.client.post('/v1/integrations', { active: true, check: false, ...body });
    const sendgrid = await integration({
      providerId: 'sendgrid',
      channel: 'email',
      identifier: 'bench-sendgrid',
      credentials: { apiKey: 'SG.bench', from: 'bench@example.com', senderName: 'Bench', baseUrl: origin },
    });
    await integration({
      providerId: 'twilio',
      channel: 'sms',
      identifier: 'bench-twilio',
      credentials: { accountSid: ACCOUNT_SID, token: 'bench', from: '+15550000000', baseUrl: origin },
      rateLimit: { perSecond: LIMIT },
    });
    const steps = {
      in_app: { type: 'in_app', content: 'Hi {{subscriber.subscriberId}}' },
      email: { type: 'email', subject: 'Hi', content: [{ type: 'text', content: '<p>Hi {{subscriber.subscriberId}}</p>' }] },
      sms: { type: 'sms', content: 'Hi {{subscriber.subscriberId}}' },
    };
    for (const [channel, template] of Object.entries(steps))
      await api.client.post('/v1/workflows', { name: `bench-${channel}`, identifier: `bench-${channel}`, active: true, steps: [{ template }] });
    const sendgridId = (sendgrid.data ?? sendgrid)._id;

    const scenarios = {
      in_app: { channel: 'in_app', vendorAllows: Infinity },
      email_unlimited: { channel: 'email', vendorAllows: Infinity, rateLimit: null },
      email_limited: { channel: 'email', vendorAllows: LIMIT, rateLimit: { perSecond: LIMIT } },
      email_pushback: { channel: 'email', vendorAllows: LIMIT, rateLimit: null },
      sms_limited: { channel: 'sms', vendorAllows: LIMIT },
    };
    let inAppRate;
    for (const name of SCENARIOS) {
      const scenario = scenarios[name];
      if (!scenario) throw new Error(`slow_vendors: no scenario ${name}`);
      if (scenario.rateLimit !== undefined) await api.client.request('PUT', `/v1/integrations/${sendgridId}`, { rateLimit: scenario.rateLimit });
      vendor.reset();
      vendor.allowed = scenario.vendorAllows;
      const transactionId = `vendors-${name}-${Date.now()}`;
      const started = Date.now();
      await api.client.post('/v1/events/trigger', { name: `bench-${scenario.channel}`, to: { type: 'Topic', topicKey }, transactionId });
      const counts = async () =>
        (
          await sandbox.query(
            `SELECT count(*) FILTER (WHERE status IN ('sent', 'seen', 'read'))::int AS sent, count(*) FILTER (WHERE status = 'error')::int AS failed,
                    max(updated_at) AS last
             FROM messages WHERE transaction_id = $1`,
            [transactionId],
          )
        )[0];
      let last;
      await waitUntil(
        async () => {
          if (!worker.running) throw new Error(`worker exited:\n${worker.output}`);
          last = await counts();
          return last.sent + last.failed >= SUBSCRIBERS;
        },
        { timeoutMs: 120_000 + SUBSCRIBERS * 100, intervalMs: 500, what: `${SUBSCRIBERS} ${name} messages` },
      );
      const seconds = (new Date(last.last).getTime() - started) / 1000;
      const rate = SUBSCRIBERS / seconds;
      if (name === 'in_app') inAppRate = rate;
      const line = {
        bench: 'slow_vendors',
        scenario: name,
        subscribers: SUBSCRIBERS,
        vendor_delay_ms: DELAY_MS,
        vendor_allows_per_s: Number.isFinite(scenario.vendorAllows) ? scenario.vendorAllows : null,
        deliveries_per_s: round(rate, 0),
        seconds_to_last_message: round(seconds),
        messages_failed: last.failed,
        vendor_requests: vendor.requests,
        vendor_429s: vendor.refused,
        worker_peak_rss_mb: round(worker.peakRssMb() ?? NaN, 0),
        ...(inAppRate && name !== 'in_app' ? { in_app_deliveries_per_s: round(inAppRate, 0), vs_in_app: round(rate / inAppRate, 3) } : {}),
      };
      log(
        `slow_vendors: ${name}: ${line.deliveries_per_s}/s, ${line.seconds_to_last_message} s, ${line.messages_failed} failed, ${line.vendor_requests} requests (${line.vendor_429s} refused)`,
      );
      result(line);
      lines.push(line);
    }
    return lines;
  } finally {
    await Promise.all([worker.stop(), api.child.stop(), vendor.close()]);
  }
}

module.exports = { benchSlowVendors };
