'use strict';
// The slow_vendors phase of `npm run bench` (BENCH_ONLY=vendors): deliveries that call a vendor. One
// loopback fake in this process answers SendGrid's mail send, Resend's email send, Twilio's message
// create, Expo's push send and FCM's v1 send (Google's token exchange too, not counted) after
// BENCH_VENDOR_DELAY_MS (100) and allows a number of requests a second (a one-second window), answering
// 429 with `Retry-After: 1` above it. One trigger to a topic of BENCH_VENDOR_SUBSCRIBERS (10,000)
// subscribers, per scenario, each measured from the trigger to the last message sent:
//   in_app                 the same topic through an in-app step: the baseline of the run
//   email_unlimited        SendGrid, the vendor allowing everything, no integration limit (content per subscriber: no batch)
//   email_limited          SendGrid, the vendor allowing BENCH_VENDOR_LIMIT (500)/s, the integration's rateLimit the same
//   email_pushback         SendGrid, the vendor allowing BENCH_VENDOR_LIMIT/s, no integration limit: only its 429s slow the sends
//   sms_limited            Twilio, the vendor allowing BENCH_VENDOR_LIMIT/s, the integration's rateLimit the same
//   email_alike_unbatched  one email alike for everyone through Resend (one message a request), the vendor allowing
//                          BENCH_VENDOR_BATCH_LIMIT (50) requests/s, no integration limit (its 429s pace the sends)
//   email_alike_batched    the same email through SendGrid, which batches it (personalizations), the same vendor allowance
//   push_expo              Expo (up to 100 messages a request), no limit; one device token per subscriber
//   push_fcm               FCM (no batch: one request a message on kept-alive sockets, one access token), no limit
// Each prints one JSON line: deliveries/s, seconds to the last message, messages failed, vendor requests
// (and 429s) made, messages per request, the worker's peak RSS, and the in-app rate of the same run beside
// it; email_alike_batched also the unbatched rate (`vs_unbatched`).
const http = require('node:http');
const { generateKeyPairSync } = require('node:crypto');
const { log, round, seedTopic, waitUntil } = require('./support');

const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const SUBSCRIBERS = num('BENCH_VENDOR_SUBSCRIBERS', 10000);
const DELAY_MS = num('BENCH_VENDOR_DELAY_MS', 100);
const LIMIT = num('BENCH_VENDOR_LIMIT', 500);
// The vendor's requests a second in the alike-email scenarios: low enough that the vendor, not the service, bounds the unbatched sends.
const BATCH_LIMIT = num('BENCH_VENDOR_BATCH_LIMIT', 50);
const SCENARIOS = (
  process.env.BENCH_VENDOR_SCENARIOS ||
  'in_app,email_unlimited,email_limited,email_pushback,sms_limited,email_alike_unbatched,email_alike_batched,push_expo,push_fcm'
).split(',');
const ACCOUNT_SID = `AC${'0'.repeat(32)}`;

/** What the vendor answers a send it takes (by path): SendGrid, Resend, Expo (a ticket per message), FCM, else Twilio. */
function answer(req, body, n) {
  const json = (status, value) => [status, { 'content-type': 'application/json' }, JSON.stringify(value)];
  if (req.url.startsWith('/v3/mail/send')) return [202, { 'x-message-id': `sg-${n}` }, ''];
  if (req.url === '/emails') return json(200, { id: `re-${n}` });
  if (req.url.startsWith('/--/api/v2/push/send')) return json(200, { data: [JSON.parse(body)].flat().map((_, i) => ({ status: 'ok', id: `expo-${n}-${i}` })) });
  if (req.url.endsWith('/messages:send')) return json(200, { name: `projects/bench/messages/${n}` });
  return json(201, { sid: `SM${n}`, status: 'queued' });
}

/** Every vendor on one loopback port: a slow vendor with a per-second allowance. */
class SlowVendor {
  constructor() {
    this.allowed = Infinity;
    this.reset();
    this.server = http.createServer((req, res) => {
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        // Google's token exchange: once per worker, not a send.
        if (req.url === '/token') {
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ access_token: 'ya29.bench', expires_in: 3599, token_type: 'Bearer' }));
          return;
        }
        this.requests++;
        const second = Math.floor(Date.now() / 1000);
        if (second !== this.second) [this.second, this.inSecond] = [second, 0];
        if (++this.inSecond > this.allowed) {
          this.refused++;
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"errors":[{"message":"too many requests"}]}');
          return;
        }
        setTimeout(() => {
          const [status, headers, body] = answer(req, Buffer.concat(chunks).toString('utf8'), ++this.accepted);
          res.writeHead(status, headers).end(body);
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
      providerId: 'resend',
      channel: 'email',
      identifier: 'bench-resend',
      credentials: { apiKey: 're_bench', from: 'bench@example.com', senderName: 'Bench', baseUrl: origin },
    });
    const expo = await integration({ providerId: 'expo', channel: 'push', identifier: 'bench-expo', credentials: { apiKey: 'expo-bench', baseUrl: origin } });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const serviceAccount = JSON.stringify({
      type: 'service_account',
      project_id: 'bench',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      client_email: 'bench@bench.iam.gserviceaccount.com',
      token_uri: `${origin}/token`,
    });
    const fcm = await integration({ providerId: 'fcm', channel: 'push', identifier: 'bench-fcm', credentials: { serviceAccount, baseUrl: origin } });
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
      // the same for every subscriber: what a batching vendor can put in one request
      email_alike: { type: 'email', subject: 'News', content: [{ type: 'text', content: '<p>This week’s news, the same for everyone</p>' }] },
      push: { type: 'push', title: 'Hi', content: 'Hi {{subscriber.subscriberId}}' },
    };
    for (const [channel, template] of Object.entries(steps))
      await api.client.post('/v1/workflows', { name: `bench-${channel}`, identifier: `bench-${channel}`, active: true, steps: [{ template }] });
    const sendgridId = (sendgrid.data ?? sendgrid)._id;
    const idOf = (created) => (created.data ?? created)._id;
    // One device token per subscriber, held for the push integration of the scenario only.
    const holdTokens = (providerId, integrationId, token) =>
      sandbox.query(
        `UPDATE subscribers SET channels = jsonb_build_array(jsonb_build_object('providerId', $2::text, 'integrationId', $3::text,
           'credentials', jsonb_build_object('deviceTokens', jsonb_build_array(${token}))))
         WHERE environment_id = $1 AND subscriber_id LIKE 'bench-vendors-%'`,
        [environment.id, providerId, integrationId],
      );

    const scenarios = {
      in_app: { channel: 'in_app', vendorAllows: Infinity },
      email_unlimited: { channel: 'email', vendorAllows: Infinity, rateLimit: null, integration: 'bench-sendgrid' },
      email_limited: { channel: 'email', vendorAllows: LIMIT, rateLimit: { perSecond: LIMIT }, integration: 'bench-sendgrid' },
      email_pushback: { channel: 'email', vendorAllows: LIMIT, rateLimit: null, integration: 'bench-sendgrid' },
      sms_limited: { channel: 'sms', vendorAllows: LIMIT },
      email_alike_unbatched: { channel: 'email_alike', vendorAllows: BATCH_LIMIT, rateLimit: null, integration: 'bench-resend' },
      email_alike_batched: { channel: 'email_alike', vendorAllows: BATCH_LIMIT, rateLimit: null, integration: 'bench-sendgrid' },
      push_expo: { channel: 'push', vendorAllows: Infinity, tokens: () => holdTokens('expo', idOf(expo), `'ExponentPushToken[' || subscriber_id || ']'`) },
      push_fcm: { channel: 'push', vendorAllows: Infinity, tokens: () => holdTokens('fcm', idOf(fcm), `'fcm-bench-token:' || subscriber_id`) },
    };
    let inAppRate;
    let unbatchedRate;
    for (const name of SCENARIOS) {
      const scenario = scenarios[name];
      if (!scenario) throw new Error(`slow_vendors: no scenario ${name}`);
      if (scenario.rateLimit !== undefined) await api.client.request('PUT', `/v1/integrations/${sendgridId}`, { rateLimit: scenario.rateLimit });
      if (scenario.tokens) await scenario.tokens();
      vendor.reset();
      vendor.allowed = scenario.vendorAllows;
      const transactionId = `vendors-${name}-${Date.now()}`;
      const started = Date.now();
      const overrides = scenario.integration ? { email: { integrationIdentifier: scenario.integration } } : undefined;
      await api.client.post('/v1/events/trigger', { name: `bench-${scenario.channel}`, to: { type: 'Topic', topicKey }, transactionId, overrides });
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
      if (name === 'email_alike_unbatched') unbatchedRate = rate;
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
        messages_per_request: vendor.accepted ? round(last.sent / vendor.accepted, 1) : null,
        worker_peak_rss_mb: round(worker.peakRssMb() ?? NaN, 0),
        ...(inAppRate && name !== 'in_app' ? { in_app_deliveries_per_s: round(inAppRate, 0), vs_in_app: round(rate / inAppRate, 3) } : {}),
        ...(unbatchedRate && name === 'email_alike_batched'
          ? { unbatched_deliveries_per_s: round(unbatchedRate, 0), vs_unbatched: round(rate / unbatchedRate, 2) }
          : {}),
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
