import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { migratedPgliteDir } from '../support/pglite-template';
import { buildService, buildTypeErrors, compileCacheEnv, freePort } from '../support/service-processes';
import { TEST_DATABASE_URL, TEST_ENCRYPTION_KEY } from '../support/test-env';
import { waitFor } from '../support/wait-for';

/**
 * The built service as an operator runs it (`node dist/apps/api/src/main.js`), built by the same two
 * steps as `npm run build` (buildService: once per test run, outside the repository).
 */
const ROOT = resolve(__dirname, '../..');
const run = promisify(execFile);

let buildDir: string;
const scratchDirs: string[] = [];
const scratch = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratchDirs.push(dir);
  return dir;
};
const mainJs = () => join(buildDir, 'apps/api/src/main.js');

beforeAll(async () => {
  buildDir = await buildService();
}, 240_000);

afterAll(() => scratchDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The environment of a clean shell: nothing of this test process's own configuration leaks in. */
function serviceEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'info', ...compileCacheEnv() };
  return { ...env, ...vars };
}

interface Exit {
  code: number | null;
  output: string;
}

/** Runs the service and expects it to stop by itself (bad configuration). */
function runToExit(vars: Record<string, string>, args: string[] = []): Promise<Exit> {
  const cwd = scratch('notify-cwd-');
  return new Promise((resolveExit, reject) => {
    const child = spawn(process.execPath, [mainJs(), ...args], { cwd, env: serviceEnv({ DATA_DIR: join(cwd, 'data'), ...vars }) });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the service did not exit within 30 s; output:\n${output}`));
    }, 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolveExit({ code, output });
    });
  });
}

interface RunningService {
  child: ChildProcess;
  port: number;
  output: () => string;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 120_000;

/** Starts the service and waits until its health check answers. */
async function startService(vars: Record<string, string>): Promise<RunningService> {
  const port = await freePort();
  const child = spawn(process.execPath, [mainJs()], { env: serviceEnv({ HOST: '127.0.0.1', PORT: String(port), ...vars }) });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  // Generous: on a loaded two-core machine an embedded first start has taken more than 60 s.
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output}`);
    const healthy = await fetch(`http://127.0.0.1:${port}/v1/health-check`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) return { child, port, output: () => output, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`the service did not become healthy within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
}

describe('configuration of the built service', () => {
  it('builds without type errors', () => {
    expect(existsSync(mainJs())).toBe(true);
    expect(buildTypeErrors(buildDir)).toBe('');
  });

  it.each([
    ['PORT', { PORT: 'abc' }, []],
    ['PORT', { PORT: '70000' }, []],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/db' }, []],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }, []],
    ['STORE_ENCRYPTION_KEY', { STORE_ENCRYPTION_KEY: 'too-short' }, []],
    ['STORE_ENCRYPTION_KEY', { DATABASE_URL: TEST_DATABASE_URL }, []],
    ['REDIS_URL', { DATABASE_URL: TEST_DATABASE_URL, STORE_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }, ['--mode=api']],
    ['DATABASE_URL', { REDIS_URL: 'redis://127.0.0.1:6379' }, ['--mode=api']],
    ['METRICS_TOKEN', { METRICS_TOKEN: 'short' }, []],
    ['METRICS_PORT', { PORT: '3999', METRICS_PORT: '3999' }, []],
  ] as [string, Record<string, string>, string[]][])('refuses a bad or missing %s (%j %j), naming it', async (variable, vars, args) => {
    const { code, output } = await runToExit(vars, args);
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(output).toContain(`Invalid configuration: ${variable}`);
  });

  it('starts embedded in a fresh DATA_DIR, prints the first-start notice (JSON when piped), and keeps data, key and accepted work across a restart: a delayed step still delivers', async () => {
    const dataDir = scratch('notify-data-');
    const first = await startService({ DATA_DIR: dataDir });
    let headers: Record<string, string>;
    let transactionId: string;
    try {
      const line = first
        .output()
        .split('\n')
        .find((candidate) => candidate.includes('"context":"FirstStart"'));
      expect(line).toBeDefined();
      const notice = JSON.parse(line!);
      expect(notice).toMatchObject({ environment: 'Development', swagger: `http://127.0.0.1:${first.port}/api`, data: expect.stringContaining(dataDir) });
      const apiKey = notice.apiKey as string;
      expect(notice.tryIt).toContain(`ApiKey ${apiKey}`);
      headers = { Authorization: `ApiKey ${apiKey}`, 'Content-Type': 'application/json' };
      const base = `http://127.0.0.1:${first.port}`;
      const created = await fetch(`${base}/v1/tenants`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ identifier: 'before-restart', name: 'Kept' }),
      });
      expect(created.status).toBe(201);
      const workflow = await fetch(`${base}/v1/workflows`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          name: 'Restart',
          active: true,
          steps: [
            { template: { type: 'delay' }, metadata: { type: 'regular', amount: 3, unit: 'seconds' } },
            { template: { type: 'in_app', content: 'survived' } },
          ],
        }),
      });
      expect(workflow.status).toBe(201);
      const trigger = await fetch(`${base}/v1/events/trigger`, { method: 'POST', headers, body: JSON.stringify({ name: 'restart', to: 'restart-sub' }) });
      expect(trigger.status).toBe(201);
      transactionId = ((await trigger.json()) as { data: { transactionId: string } }).data.transactionId;
      // the delay is running when the process stops: its delayed job is waiting in the store
      await waitFor(async () => {
        const res = await fetch(`${base}/v1/notifications?transactionId=${transactionId}`, { headers });
        const notifications = ((await res.json()) as { data: { jobs?: { status: string }[] }[] }).data;
        return notifications.some((n) => n.jobs?.some((job) => job.status === 'delayed'));
      }, 30_000);
    } finally {
      await first.stop();
    }

    const second = await startService({ DATA_DIR: dataDir });
    try {
      // The key is only printed when it is created.
      expect(second.output()).not.toContain('FirstStart');
      const base = `http://127.0.0.1:${second.port}`;
      const res = await fetch(`${base}/v1/tenants/before-restart`, { headers });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { name: string } }).data.name).toBe('Kept');
      const messages = await waitFor(async () => {
        const page = await fetch(`${base}/v1/messages?transactionId=${transactionId!}`, { headers });
        const data = ((await page.json()) as { data: { content: string }[] }).data;
        return data.length > 0 && data;
      }, 30_000);
      expect(messages.map((m) => m.content)).toEqual(['survived']);
    } finally {
      await second.stop();
    }
  }, 180_000);
  // The tests below start on a copy of the run's migrated PGlite directory: the first test above is the
  // start on an empty DATA_DIR (migrations included); theirs is about what follows it, and a copy
  // still holds no environment, so the service's first start (the Development environment, its key,
  // the notice) runs as on an empty one, without the migrations' seconds of CPU. Their timeouts allow
  // for making that directory when this file is the run's first to ask for it.
  it('a first start on a terminal prints a readable block whatever LOG_LEVEL is', async () => {
    const service = await startService({ DATA_DIR: await migratedPgliteDir(), LOG_FORMAT: 'pretty', LOG_LEVEL: 'warn' });
    const output = service.output();
    await service.stop();
    expect(output).toMatch(
      /First start: created the Development environment\.\n {2}Data {7}.*pglite-.*\n {2}API key {4}[\w.~-]{16,} {3}\(shown once: keep it\)\n {2}Swagger {4}http:\/\/127\.0\.0\.1:\d+\/api\n {2}Try {8}curl -H "Authorization: ApiKey [\w.~-]+" http:\/\/127\.0\.0\.1:\d+\/v1\/integrations/,
    );
    // warn hides the info lines (framework chatter is at debug in any case)
    expect(output).not.toMatch(/Mapped \{|dependencies initialized|Listening on/);
  }, 180_000);

  it('logs readable lines with LOG_FORMAT=pretty: no framework chatter at info, a line when shutting down', async () => {
    const service = await startService({ DATA_DIR: await migratedPgliteDir(), LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' });
    await service.stop();
    const output = service.output();
    expect(output).toMatch(/INFO.*Listening on 127\.0\.0\.1:\d+ \(embedded mode, pglite store\)/);
    expect(output).toMatch(/Shutting down on SIGTERM: finishing running jobs, then closing connections/);
    expect(output).toMatch(/Lifecycle: Stopped/);
    expect(output).not.toMatch(/Mapped \{|dependencies initialized/);
    expect(output).not.toMatch(/^\{"level"/m);
  }, 180_000);

  it('manages environments and keys with the CLI; a new environment gets its in-app integration and its own data', async () => {
    const dataDir = await migratedPgliteDir();
    const cli = (...args: string[]) =>
      run(process.execPath, [join(buildDir, 'apps/cli/src/main.js'), ...args], { cwd: ROOT, env: serviceEnv({ DATA_DIR: dataDir }) });
    const created = await cli('environments:create', 'Production');
    const productionKey = /API key: ([\w.~-]+)/.exec(created.stdout)![1];
    const listed = await cli('environments:list');
    expect(listed.stdout).toMatch(/Development/);
    expect(listed.stdout).toMatch(/Production/);
    const productionId = /(\w{24})\s+Production/.exec(listed.stdout)![1];
    expect(listed.stdout).toMatch(/Production {2}identifier: [\w-]{12} {2}inbox hmac: on/);
    expect(listed.stdout).toMatch(/Development {2}identifier: [\w-]{12} {2}inbox hmac: off/);
    expect((await cli('environments:hmac', `${productionId}=off`)).stdout).toContain(`Inbox HMAC off for environment ${productionId}`);
    expect((await cli('environments:list')).stdout).toMatch(/Production {2}identifier: [\w-]{12} {2}inbox hmac: off/);
    const another = await cli('keys:create', productionId);
    const secondKey = /API key: ([\w.~-]+)/.exec(another.stdout)![1];
    expect(secondKey).not.toBe(productionKey);
    await expect(cli('environments:create', 'Production')).rejects.toMatchObject({ stderr: expect.stringMatching(/already exists/) });

    const service = await startService({ DATA_DIR: dataDir });
    try {
      const base = `http://127.0.0.1:${service.port}`;
      for (const key of [productionKey, secondKey]) {
        const res = await fetch(`${base}/v1/integrations`, { headers: { Authorization: `ApiKey ${key}` } });
        expect(res.status).toBe(200);
        const integrations = ((await res.json()) as { data: { providerId: string; channel: string; active: boolean }[] }).data;
        expect(integrations).toEqual([expect.objectContaining({ providerId: 'novu', channel: 'in_app', active: true })]);
      }
    } finally {
      await service.stop();
    }
  }, 180_000);
});
