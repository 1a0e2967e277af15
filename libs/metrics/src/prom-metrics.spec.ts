import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { JobCounts, JobQueue, METRICS } from '@app/kernel';
import { MetricsModule } from './metrics.module';
import { MetricsServer } from './metrics-server';
import { METRICS_CONTENT_TYPE, PromMetrics } from './prom-metrics';

/** A queue that answers counts and ages from a table, counting its reads; `broken` queues throw. */
function fakeQueue(table: Record<string, { counts: Partial<JobCounts>; ageMs?: number }>, broken: string[] = []) {
  const reads: string[] = [];
  const read = <T>(name: string, value: () => T): Promise<T> => {
    reads.push(name);
    return broken.includes(name) ? Promise.reject(new Error('connect ECONNREFUSED')) : Promise.resolve(value());
  };
  const queue = {
    getCounts: (name: string) => read(name, () => ({ waiting: 0, delayed: 0, active: 0, completed: 0, failed: 0, ...table[name].counts })),
    getOldestWaitingAgeMs: (name: string) => read(name, () => table[name].ageMs),
  } as unknown as JobQueue;
  return { queue, reads };
}

const lines = (text: string) => text.split('\n');

describe('PromMetrics', () => {
  it('counts triggers by status, deliveries by channel, provider and outcome, and reconciler re-enqueues by kind', async () => {
    const metrics = new PromMetrics({ defaultMetrics: false });
    metrics.triggerAccepted('processed');
    metrics.triggerAccepted('processed');
    metrics.triggerAccepted('trigger_not_active');
    metrics.delivery('sms', 'twilio', 'retried', 120);
    metrics.delivery('sms', 'twilio', 'failed_over', 80);
    metrics.delivery('sms', 'sns', 'sent', 40);
    metrics.delivery('in_app', 'novu', 'sent');
    metrics.reconciled('triggers', 0);
    metrics.reconciled('steps', 3);
    metrics.reconciled('steps', 2);
    const text = lines(await metrics.metrics());
    expect(text).toEqual(
      expect.arrayContaining([
        '# TYPE notify_triggers_accepted_total counter',
        'notify_triggers_accepted_total{status="processed"} 2',
        'notify_triggers_accepted_total{status="trigger_not_active"} 1',
        'notify_deliveries_total{channel="sms",provider="twilio",outcome="retried"} 1',
        'notify_deliveries_total{channel="sms",provider="twilio",outcome="failed_over"} 1',
        'notify_deliveries_total{channel="sms",provider="sns",outcome="sent"} 1',
        'notify_deliveries_total{channel="in_app",provider="novu",outcome="sent"} 1',
        'notify_reconciled_total{kind="triggers"} 0',
        'notify_reconciled_total{kind="steps"} 5',
      ]),
    );
  });

  it('counts throttle step runs by outcome', async () => {
    const metrics = new PromMetrics({ defaultMetrics: false });
    metrics.throttle('admitted');
    metrics.throttle('throttled');
    metrics.throttle('throttled');
    expect(lines(await metrics.metrics())).toEqual(
      expect.arrayContaining([
        '# TYPE notify_throttle_runs_total counter',
        'notify_throttle_runs_total{outcome="admitted"} 1',
        'notify_throttle_runs_total{outcome="throttled"} 2',
      ]),
    );
  });

  it('times provider calls per channel and provider in seconds, only when a call was made', async () => {
    const metrics = new PromMetrics({ defaultMetrics: false });
    metrics.delivery('sms', 'twilio', 'retried', 120);
    metrics.delivery('sms', 'twilio', 'sent', 30);
    metrics.delivery('in_app', 'novu', 'sent');
    const text = lines(await metrics.metrics());
    expect(text).toEqual(
      expect.arrayContaining([
        'notify_provider_send_duration_seconds_count{channel="sms",provider="twilio"} 2',
        'notify_provider_send_duration_seconds_sum{channel="sms",provider="twilio"} 0.15',
        'notify_provider_send_duration_seconds_bucket{le="0.05",channel="sms",provider="twilio"} 1',
        'notify_provider_send_duration_seconds_bucket{le="0.25",channel="sms",provider="twilio"} 2',
      ]),
    );
    expect(text.some((line) => line.startsWith('notify_provider_send_duration_seconds') && line.includes('in_app'))).toBe(false);
  });

  it('records HTTP requests by method, route pattern and status code in a histogram whose count is the request count', async () => {
    const metrics = new PromMetrics({ defaultMetrics: false });
    metrics.httpRequest('POST', '/v1/events/trigger', 201, 12);
    metrics.httpRequest('POST', '/v1/events/trigger', 201, 700);
    metrics.httpRequest('POST', '/v1/events/trigger', 422, 3);
    const text = lines(await metrics.metrics());
    expect(text).toEqual(
      expect.arrayContaining([
        '# TYPE notify_http_request_duration_seconds histogram',
        'notify_http_request_duration_seconds_count{method="POST",route="/v1/events/trigger",status_code="201"} 2',
        'notify_http_request_duration_seconds_bucket{le="0.025",method="POST",route="/v1/events/trigger",status_code="201"} 1',
        'notify_http_request_duration_seconds_bucket{le="1",method="POST",route="/v1/events/trigger",status_code="201"} 2',
        'notify_http_request_duration_seconds_count{method="POST",route="/v1/events/trigger",status_code="422"} 1',
      ]),
    );
  });

  it('reads queue depth and the oldest waiting job at scrape time, once per queue per scrape', async () => {
    const table = { fanout: { counts: { waiting: 3, delayed: 1, active: 2, failed: 4, completed: 99 }, ageMs: 2_500 }, steps: { counts: {} } };
    const { queue, reads } = fakeQueue(table);
    const metrics = new PromMetrics({ defaultMetrics: false, queues: { queue, names: ['fanout', 'steps'] } });
    expect(reads).toEqual([]);
    const text = lines(await metrics.metrics());
    expect(text).toEqual(
      expect.arrayContaining([
        'notify_queue_jobs{queue="fanout",state="waiting"} 3',
        'notify_queue_jobs{queue="fanout",state="delayed"} 1',
        'notify_queue_jobs{queue="fanout",state="active"} 2',
        'notify_queue_jobs{queue="fanout",state="failed"} 4',
        'notify_queue_jobs{queue="steps",state="waiting"} 0',
        'notify_queue_oldest_waiting_job_age_seconds{queue="fanout"} 2.5',
        'notify_queue_oldest_waiting_job_age_seconds{queue="steps"} 0',
      ]),
    );
    expect(text.some((line) => line.includes('state="completed"'))).toBe(false);
    expect(reads.sort()).toEqual(['fanout', 'fanout', 'steps', 'steps']); // counts and age, shared by both gauges

    table.fanout.counts.waiting = 0;
    expect(lines(await metrics.metrics())).toContain('notify_queue_jobs{queue="fanout",state="waiting"} 0');
    expect(reads).toHaveLength(8);
  });

  it('leaves out a queue it cannot read instead of failing the scrape, and says why', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { queue } = fakeQueue({ fanout: { counts: { waiting: 1 } }, steps: { counts: {} } }, ['steps']);
    const metrics = new PromMetrics({ defaultMetrics: false, queues: { queue, names: ['fanout', 'steps'] } });
    const text = await metrics.metrics();
    expect(text).toContain('notify_queue_jobs{queue="fanout",state="waiting"} 1');
    expect(text).not.toContain('queue="steps"');
    expect(warn).toHaveBeenCalledWith('Queue "steps" could not be read for metrics: connect ECONNREFUSED');
    warn.mockRestore();
  });

  it('includes the Node process metrics unless told not to; instances keep registries of their own', async () => {
    const withDefaults = new PromMetrics();
    const another = new PromMetrics();
    another.triggerAccepted('processed');
    expect(await withDefaults.metrics()).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(await withDefaults.metrics()).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(await withDefaults.metrics()).not.toContain('notify_triggers_accepted_total{status="processed"} 1');
    expect(await new PromMetrics({ defaultMetrics: false }).metrics()).not.toContain('process_cpu_user_seconds_total');
  });
});

describe('MetricsModule', () => {
  it('binds the METRICS port to the PromMetrics the app serves', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [MetricsModule.forRoot({ defaultMetrics: false })] }).compile();
    const metrics = moduleRef.get(PromMetrics);
    expect(moduleRef.get(METRICS)).toBe(metrics);
    expect(() => moduleRef.get(MetricsServer)).toThrow();
    await moduleRef.close();
  });

  it('with a port, serves GET /metrics on a bare HTTP server for the life of the app', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [MetricsModule.forRoot({ port: 0, host: '127.0.0.1' })] }).compile();
    await moduleRef.init();
    moduleRef.get(PromMetrics).delivery('email', 'sendgrid', 'sent', 250);
    const base = `http://127.0.0.1:${moduleRef.get(MetricsServer).boundPort}`;

    const scrape = await fetch(`${base}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toBe(METRICS_CONTENT_TYPE);
    const text = await scrape.text();
    expect(text).toContain('notify_deliveries_total{channel="email",provider="sendgrid",outcome="sent"} 1');
    expect(text).toContain('process_resident_memory_bytes');
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);

    await moduleRef.close();
    await expect(fetch(`${base}/metrics`)).rejects.toThrow();
  });
});
