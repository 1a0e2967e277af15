import { Logger } from '@nestjs/common';
import { Integration } from '@app/integrations';
import { DeferredJobError, DeliveryOutcome, Metrics, OutboundEvent, RetryableJobError, noopMetrics, systemClock } from '@app/kernel';
import { FlexibleVendorPace } from '@app/redis';
import { Subscriber } from '@app/subscribers';
import { Workflow, WorkflowStep } from '@app/workflows';
import { Attempt } from '../../../domain/attempt';
import { DETAIL, ExecutionDetail } from '../../../domain/execution-detail';
import { Job } from '../../../domain/job';
import { Message } from '../../../domain/message';
import { ChannelProvider, ProviderError, ProviderRegistry, SmsMessage } from '../../../ports/channel-provider.port';
import { StepContext } from '../step-context';
import { ChainSession } from '../chain-session';
import { DeliveryUnit, ProviderDelivery } from './provider-delivery';
import { StepRecorder } from './step-recorder';
import { CircuitOpenError, VendorPacing } from './vendor-pacing';

const scope = { organizationId: 'org', environmentId: 'env' };
const job = {
  id: 'job-1',
  ...scope,
  notificationId: 'n-1',
  transactionId: 'tx-1',
  subscriberId: 's-1',
  type: 'sms',
  status: 'running',
  payload: {},
  overrides: {},
  attempts: 0,
} as unknown as Job;
const step = { id: 'step-1', uuid: 'u-1', name: 'SMS', template: { type: 'sms', content: 'hi' } } as unknown as WorkflowStep;
const workflow = { id: 'wf-1', trigger: { identifier: 'welcome' }, tags: [], steps: [step] } as unknown as Workflow;

const integration = (identifier: string, providerId: string, fallbacks: string[] = []): Integration =>
  ({
    id: `id-${identifier}`,
    identifier,
    providerId,
    channel: 'sms',
    credentials: { apiKey: `secret-key-of-${identifier}` },
    fallbacks,
    conditions: [],
    primary: false,
    // Above twilio's default of one a second: these cases send several messages at once.
    rateLimit: { perSecond: 1000 },
  }) as unknown as Integration;

/** A provider that answers each call with the next scripted outcome (a ProviderError is thrown). */
function scripted(id: string, ...outcomes: (ProviderError | 'ok')[]) {
  const calls: SmsMessage[] = [];
  const provider: ChannelProvider<'sms'> = {
    id,
    channel: 'sms',
    send: async (message) => {
      calls.push(message);
      const outcome = outcomes.shift() ?? 'ok';
      if (outcome !== 'ok') throw outcome;
      return { id: `${id}-${calls.length}`, date: new Date().toISOString() };
    },
  };
  return { provider, calls };
}

/** A store of the job's messages and details that takes every flush, and a fresh session of the job per run (as a rerun opens one). */
function recordingStore() {
  const messages: Message[] = [];
  const details: ExecutionDetail[] = [];
  const flush = async (session: ChainSession): Promise<boolean> => {
    const write = session.pendingWrite();
    if (write?.kind !== 'changes') return (session.written(), true);
    const stored = new Map<string, { message: Message; created: boolean }>();
    for (const message of write.messages) {
      const existing = messages.find((candidate) => candidate.id === message.id);
      if (!existing) messages.push({ ...message });
      stored.set(message.id, existing ? { message: { ...existing }, created: false } : { message, created: true });
    }
    for (const delivery of write.deliveries)
      messages.splice(
        messages.findIndex((candidate) => candidate.id === delivery.id),
        1,
        { ...delivery },
      );
    details.push(...write.details);
    session.written(write, { written: true, moved: new Set([job.id]), messages: stored });
    return true;
  };
  const open = () => ChainSession.ofStoredChain([job], job.id, systemClock, flush);
  return { open, records: { messages, details } };
}

function setup(providers: ChannelProvider<'sms'>[], attempt = { made: 0, of: 6 }, metrics: Metrics = noopMetrics) {
  const { open, records: writes } = recordingStore();
  const registry: ProviderRegistry = {
    get: ((_channel: string, providerId: string) => providers.find((p) => p.id === providerId)) as ProviderRegistry['get'],
    list: () => providers,
  };
  const events: OutboundEvent[] = [];
  // The embedded mode's pace (in this process); a circuit opens after 3 failures in a row.
  const pacing = new VendorPacing(new FlexibleVendorPace(undefined, { circuitFailures: 3, circuitOpenMs: 60_000 }));
  const delivery = new ProviderDelivery(registry, new StepRecorder(systemClock), pacing, metrics, {
    publish: async (_scope, event) => void events.push(...([] as OutboundEvent[]).concat(event)),
  });
  const context = {
    scope,
    job,
    workflow,
    step,
    subscriber: { id: 's-1', subscriberId: 'ada', channels: [] } as unknown as Subscriber,
    session: open(),
    attempt: Attempt.of(attempt.made, attempt.of),
    now: new Date(),
  } as StepContext;
  /** One run of the step: a session of its own, flushed at its end as RunStep does (also when it throws). */
  const deliver = async (...[given, ...rest]: Parameters<ProviderDelivery['deliver']>) => {
    const run = { ...given, session: open() };
    try {
      return await delivery.deliver(run, ...rest);
    } finally {
      await run.session.flush();
    }
  };
  const unit = (chain: Integration[], forget?: () => Promise<Record<string, unknown> | undefined>): DeliveryUnit<'sms'> => ({
    chain,
    targets: () => [{ address: '+15550001', fields: { phone: '+15550001' }, build: (id) => ({ id, to: '+15550001', content: 'hi' }), forget }],
  });
  const details = () => writes.details.map((d) => d.detail);
  return { deliver, context, writes, unit, details, events };
}

describe('ProviderDelivery', () => {
  let warnings: string[];
  beforeEach(() => {
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message) => void warnings.push(String(message)));
  });
  afterEach(() => jest.restoreAllMocks());
  const primary = integration('twilio-main', 'twilio', ['sns-backup']);
  const backup = integration('sns-backup', 'sns');

  it('sends, records the message as sent with the vendor id, and says so in the details', async () => {
    const twilio = scripted('twilio', 'ok');
    const { deliver, context, writes, unit, details } = setup([twilio.provider]);
    await expect(deliver(context, 'sms', [unit([primary])], { content: 'hi' })).resolves.toEqual({ kind: 'completed', providerId: 'twilio' });
    expect(writes.messages).toHaveLength(1);
    expect(writes.messages[0]).toMatchObject({ status: 'sent', identifier: 'twilio-1', providerId: 'twilio', phone: '+15550001' });
    expect(writes.messages[0]).not.toHaveProperty('errorText');
    expect(twilio.calls[0].id).toBe(writes.messages[0].id); // our message id is the idempotency key
    expect(details()).toEqual(['twilio provider was selected', 'Message sent']);
  });

  it('a retryable failure with attempts left goes back to the queue', async () => {
    const twilio = scripted('twilio', new ProviderError('retryable', 'unavailable', { retryAfterMs: 7_000 }));
    const { deliver, context, writes, unit, details } = setup([twilio.provider]);
    const retry = deliver(context, 'sms', [unit([primary])], { content: 'hi' });
    await expect(retry).rejects.toBeInstanceOf(RetryableJobError);
    await expect(retry).rejects.toMatchObject({ retryAfterMs: 7_000 });
    expect(writes.messages[0].status).toBe('warning');
    expect(details()).toEqual(['twilio provider was selected', 'Provider error, retry scheduled']);
  });

  it("a 429 defers the job to the vendor's time without spending an attempt, and holds the integration's next calls too", async () => {
    const twilio = scripted('twilio', new ProviderError('rate_limited', 'slow down', { status: 429, retryAfterMs: 7_000 }));
    const { deliver, context, writes, unit, details } = setup([twilio.provider]);
    const deferred = deliver(context, 'sms', [unit([primary])], { content: 'hi' });
    await expect(deferred).rejects.toBeInstanceOf(DeferredJobError);
    await expect(deferred).rejects.toMatchObject({ retryAfterMs: 7_000 });
    expect(writes.messages[0].status).toBe('warning');
    expect(details()).toEqual(['twilio provider was selected', DETAIL.VENDOR_PUSHBACK]);
    // Another job through the integration waits as well, and the vendor hears nothing of it.
    await expect(deliver(context, 'sms', [unit([primary])], { content: 'hi' })).rejects.toBeInstanceOf(DeferredJobError);
    expect(twilio.calls).toHaveLength(1);
  });

  it('failures in a row open the circuit: the next delivery moves on to the fallback, or waits without one', async () => {
    const down = new ProviderError('retryable', 'HTTP 503');
    const twilio = scripted('twilio', down, down, down);
    const sns = scripted('sns', 'ok');
    const { deliver, context, unit, details } = setup([twilio.provider, sns.provider]);
    for (let run = 0; run < 3; run++) await expect(deliver(context, 'sms', [unit([primary])], { content: 'hi' })).rejects.toBeInstanceOf(RetryableJobError);
    expect(details()).toContain(DETAIL.CIRCUIT_OPENED);
    await expect(deliver(context, 'sms', [unit([primary])], { content: 'hi' })).rejects.toBeInstanceOf(CircuitOpenError);
    await expect(deliver(context, 'sms', [unit([primary, backup])], { content: 'hi' })).resolves.toEqual({
      kind: 'completed',
      providerId: 'sns',
    });
    expect(details()).toContain(DETAIL.CIRCUIT_OPEN_FAILOVER);
    expect(twilio.calls).toHaveLength(3);
  });

  it('a permanent failure moves on to the fallback at once; the message of each hop records its provider', async () => {
    const twilio = scripted('twilio', new ProviderError('auth', 'bad token'));
    const sns = scripted('sns', 'ok');
    const { deliver, context, writes, unit, details } = setup([twilio.provider, sns.provider]);
    await expect(deliver(context, 'sms', [unit([primary, backup])], { content: 'hi' })).resolves.toEqual({ kind: 'completed', providerId: 'sns' });
    expect(writes.messages.map((m) => [m.providerId, m.status])).toEqual([
      ['twilio', 'error'],
      ['sns', 'sent'],
    ]);
    expect(details()).toEqual([
      'twilio provider was selected',
      'Unexpected provider error',
      'Fallback integration selected',
      'sns provider was selected',
      'Message sent',
    ]);
    expect(JSON.parse(writes.details[2].raw!)).toEqual({ from: 'twilio-main', to: 'sns-backup', reason: 'bad token' });
  });

  it('retries used up: the fallback gets a fresh run (a failover job), which resumes at the fallback', async () => {
    const twilio = scripted('twilio', new ProviderError('retryable', 'HTTP 503'));
    const sns = scripted('sns', 'ok');
    const last = setup([twilio.provider, sns.provider], { made: 5, of: 6 });
    const outcome = await last.deliver(last.context, 'sms', [last.unit([primary, backup])], { content: 'hi' });
    expect(outcome).toEqual({ kind: 'failover', queueJobId: 'job-1:failover:id-twilio-main:id-sns-backup', delayMs: 0 });
    expect(sns.calls).toHaveLength(0);
    expect(last.details()).toEqual(['twilio provider was selected', 'Provider error, retries exhausted', 'Fallback integration selected']);

    // The fresh run (attempt 1 of a new budget) finds hop 0 failed and delivers through the fallback.
    const fresh = { ...last.context, attempt: Attempt.first(6) };
    await expect(last.deliver(fresh, 'sms', [last.unit([primary, backup])], { content: 'hi' })).resolves.toEqual({
      kind: 'completed',
      providerId: 'sns',
    });
    expect(twilio.calls).toHaveLength(1);
    expect(last.details().filter((d) => d === 'Fallback integration selected')).toHaveLength(1);
  });

  it('fails with the last reason when every hop failed', async () => {
    const twilio = scripted('twilio', new ProviderError('invalid_request', 'bad number'));
    const sns = scripted('sns', new ProviderError('invalid_recipient', 'opted out'));
    const { deliver, context, unit } = setup([twilio.provider, sns.provider]);
    await expect(deliver(context, 'sms', [unit([primary, backup])], { content: 'hi' })).resolves.toEqual({
      kind: 'failed',
      reason: 'opted out',
      providerId: 'sns',
    });
  });

  it('masks the integration secrets wherever a vendor answer repeats them', async () => {
    const echo = new ProviderError('auth', 'key secret-key-of-twilio-main refused', { raw: { body: 'Authorization: secret-key-of-twilio-main' } });
    const { deliver, context, writes, unit } = setup([scripted('twilio', echo).provider]);
    await deliver(context, 'sms', [unit([integration('twilio-main', 'twilio')])], { content: 'hi' });
    const recorded = JSON.stringify([writes.details, writes.messages]);
    expect(recorded).not.toContain('secret-key-of-twilio-main');
    expect(writes.messages[0].errorText).toBe('key **** refused');
  });

  it('asks the target to forget itself when the vendor says the recipient is gone', async () => {
    const forget = jest.fn(async () => ({ token: 'abc…' }));
    const { deliver, context, unit, details } = setup([scripted('twilio', new ProviderError('invalid_recipient', 'unregistered')).provider]);
    await deliver(context, 'sms', [unit([integration('twilio-main', 'twilio')], forget)], { content: 'hi' });
    expect(forget).toHaveBeenCalledTimes(1);
    expect(details()).toContain('Device token removed from the subscriber: the provider reports it is no longer registered');
  });

  it('a provider without an adapter fails the hop, and a redelivered job finds a sent message and sends nothing', async () => {
    const sns = scripted('sns', 'ok');
    const { deliver, context, unit } = setup([sns.provider]);
    const chain = [integration('appio-main', 'appio', ['sns-backup']), backup];
    await expect(deliver(context, 'sms', [unit(chain)], { content: 'hi' })).resolves.toEqual({ kind: 'completed', providerId: 'sns' });
    await expect(deliver(context, 'sms', [unit(chain)], { content: 'hi' })).resolves.toEqual({ kind: 'completed', providerId: 'sns' });
    expect(sns.calls).toHaveLength(1);
  });

  describe('metrics and logs', () => {
    let counted: { channel: string; provider: string; outcome: DeliveryOutcome; timed: boolean }[];
    const metrics: Metrics = {
      ...noopMetrics,
      delivery: (channel, provider, outcome, durationMs) =>
        void counted.push({ channel, provider, outcome, timed: durationMs !== undefined && durationMs >= 0 }),
    };
    beforeEach(() => (counted = []));

    it('counts each attempt with its outcome and send latency, and logs each one that did not succeed at warn', async () => {
      const twilio = scripted('twilio', new ProviderError('retryable', 'slow down'), new ProviderError('auth', 'bad token'));
      const sns = scripted('sns', 'ok');
      const { deliver, context, unit } = setup([twilio.provider, sns.provider], { made: 0, of: 6 }, metrics);
      await expect(deliver(context, 'sms', [unit([primary, backup])], { content: 'hi' })).rejects.toBeInstanceOf(RetryableJobError);
      await deliver({ ...context, attempt: context.attempt.next() }, 'sms', [unit([primary, backup])], { content: 'hi' });
      expect(counted).toEqual([
        { channel: 'sms', provider: 'twilio', outcome: 'retried', timed: true },
        { channel: 'sms', provider: 'twilio', outcome: 'failed_over', timed: true },
        { channel: 'sms', provider: 'sns', outcome: 'sent', timed: true },
      ]);
      expect(warnings).toEqual([
        'Delivery retried: job job-1, sms through twilio (integration twilio-main), attempt 1 of 6: slow down',
        'Delivery failed_over: job job-1, sms through twilio (integration twilio-main, next sns-backup), attempt 2 of 6: bad token',
      ]);
    });

    it('counts a failure with no integration left as failed, with the secrets masked in the log line', async () => {
      const echo = new ProviderError('retryable', 'key secret-key-of-twilio-main timed out');
      const { deliver, context, unit } = setup([scripted('twilio', echo).provider], { made: 5, of: 6 }, metrics);
      await expect(deliver(context, 'sms', [unit([integration('twilio-main', 'twilio')])], { content: 'hi' })).resolves.toMatchObject({
        kind: 'failed',
      });
      expect(counted).toEqual([{ channel: 'sms', provider: 'twilio', outcome: 'failed', timed: true }]);
      expect(warnings).toEqual(['Delivery failed: job job-1, sms through twilio (integration twilio-main), attempt 6 of 6: key **** timed out']);
    });

    it('an attempt with no adapter to call is counted untimed; outcomes an earlier run recorded are not counted again', async () => {
      const sns = scripted('sns', 'ok');
      const { deliver, context, unit } = setup([sns.provider], { made: 0, of: 6 }, metrics);
      const chain = [integration('appio-main', 'appio', ['sns-backup']), backup];
      await deliver(context, 'sms', [unit(chain)], { content: 'hi' });
      await deliver(context, 'sms', [unit(chain)], { content: 'hi' });
      expect(counted).toEqual([
        { channel: 'sms', provider: 'appio', outcome: 'failed_over', timed: false },
        { channel: 'sms', provider: 'sns', outcome: 'sent', timed: true },
      ]);
      expect(warnings).toHaveLength(1);
    });
  });
});

describe('ProviderDelivery outbound events', () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('publishes message.sent once a provider takes the message, message.failed when it fails for good, each keyed by the message id', async () => {
    const good = scripted('good');
    const sent = setup([good.provider]);
    await sent.deliver(sent.context, 'sms', [sent.unit([integration('a', 'good')])], { content: 'hi' });
    expect(sent.events).toEqual([
      expect.objectContaining({
        type: 'message.sent',
        key: sent.writes.messages[0].id,
        object: expect.objectContaining({ _id: sent.writes.messages[0].id, status: 'sent', subscriberId: 'ada', identifier: 'good-1', channel: 'sms' }),
      }),
    ]);
    expect(sent.events[0].object).not.toHaveProperty('overrides');

    const bad = scripted('bad', new ProviderError('permanent', 'rejected'));
    const failed = setup([bad.provider]);
    await failed.deliver(failed.context, 'sms', [failed.unit([integration('b', 'bad')])], { content: 'hi' });
    expect(failed.events).toEqual([
      expect.objectContaining({ type: 'message.failed', key: failed.writes.messages[0].id, error: { message: 'rejected', code: 'unexpected_provider_error' } }),
    ]);
  });

  it('publishes nothing for an attempt that will be retried; a rerun that finds the message ended publishes its event again under the same key', async () => {
    const flaky = scripted('flaky', new ProviderError('retryable', '503'));
    const s = setup([flaky.provider]);
    await expect(s.deliver(s.context, 'sms', [s.unit([integration('a', 'flaky')])], { content: 'hi' })).rejects.toBeInstanceOf(RetryableJobError);
    expect(s.events).toEqual([]);
    await s.deliver(s.context, 'sms', [s.unit([integration('a', 'flaky')])], { content: 'hi' });
    await s.deliver(s.context, 'sms', [s.unit([integration('a', 'flaky')])], { content: 'hi' });
    expect(flaky.calls).toHaveLength(2);
    expect(s.events.map((e) => [e.type, e.key])).toEqual([
      ['message.sent', s.writes.messages[0].id],
      ['message.sent', s.writes.messages[0].id],
    ]);
  });
});
