import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR_LOCK_FILE } from '@app/store-sql';
import { migratedPgliteDir } from '../support/pglite-template';
import { ServiceHarness, buildService, compileCacheEnv, freePort, sleep } from '../support/service-processes';

/**
 * One process owns an embedded DATA_DIR. The built service (`node main.js`) and CLI run as an
 * operator runs them, as real processes on a shared directory: a second service and the CLI are
 * refused while the service runs, and what the CLI creates with the service stopped is kept.
 * Each DATA_DIR is a copy of the run's migrated PGlite (no environment in it yet, so a start there is
 * still a first start): none of this is about initdb, which costs tens of seconds of CPU under load.
 */

let buildDir: string;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  buildDir = await buildService();
}, 180_000);

afterAll(() => {
  children.forEach((child) => child.kill('SIGKILL'));
});

/** A clean shell's environment: nothing of this test process's configuration leaks in. */
function env(vars: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...compileCacheEnv(), ...vars };
}

interface Exit {
  code: number | null;
  output: string;
}

/** Runs a built script to its end (the CLI, or a service that is refused). */
function runToExit(script: string, args: string[], vars: Record<string, string>): Promise<Exit> {
  return new Promise((resolveExit, reject) => {
    const child = spawn(process.execPath, [join(buildDir, script), ...args], { env: env(vars) });
    children.add(child);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not exit within 60 s; output:\n${output}`));
    }, 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolveExit({ code, output });
    });
  });
}

const cli = (dataDir: string, ...args: string[]) => runToExit('apps/cli/src/main.js', args, { DATA_DIR: dataDir });

interface Service {
  child: ChildProcess;
  pid: number;
  base: string;
  output(): string;
  stop(): Promise<void>;
  kill(): Promise<void>;
}

/** Starts the embedded service (`node main.js`) on `dataDir` and waits for its health check. */
async function startService(dataDir: string, vars: Record<string, string> = {}): Promise<Service> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(buildDir, 'apps/api/src/main.js')], {
    env: env({ HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, ...vars }),
  });
  children.add(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => (children.delete(child), done())));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const service: Service = {
    child,
    pid: child.pid!,
    base: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      if (alive()) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
  };
  for (let attempt = 0; attempt < 600; attempt++) {
    if (!alive()) throw new Error(`the service exited with ${child.exitCode}:\n${output}`);
    if (
      await fetch(`${service.base}/v1/health-check`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return service;
    await sleep(100);
  }
  await service.kill();
  throw new Error(`the service did not become healthy within 60 s:\n${output}`);
}

async function subscribersStatus(service: { base: string }, apiKey: string): Promise<number> {
  const res = await fetch(`${service.base}/v2/subscribers`, { headers: { Authorization: `ApiKey ${apiKey}` } });
  return res.status;
}

const printedKey = (output: string) => /API key: ([\w.~-]+)/.exec(output)?.[1];
const lockOwnerPid = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, DATA_DIR_LOCK_FILE), 'utf8')).pid;

describe('one process owns an embedded DATA_DIR', () => {
  it('refuses the CLI while the service runs on the same DATA_DIR, and nothing of the command is written', async () => {
    const dataDir = await migratedPgliteDir();
    const service = await startService(dataDir);
    let refused: Exit;
    try {
      refused = await cli(dataDir, 'environments:create', 'Production');
      const health = await fetch(`${service.base}/v1/health-check`).then(
        (r) => r.status,
        (error: Error) => `${error.message} (${(error.cause as Error | undefined)?.message}); the service's output:\n${service.output()}`,
      );
      expect(health).toBe(200);
    } finally {
      await service.stop();
    }
    expect(refused.code).toBe(78);
    expect(refused.output).toContain(`DATA_DIR ${dataDir} is open in pid ${service.pid} (node `);
    expect(refused.output).toContain('nothing was written');
    expect(refused.output).toContain('stop the service, run this command, then start the service again');
    expect(printedKey(refused.output)).toBeUndefined();

    const listed = await cli(dataDir, 'environments:list');
    expect(listed).toMatchObject({ code: 0 });
    expect(listed.output).toContain('Development');
    expect(listed.output).not.toContain('Production');
  }, 120_000);

  it('keeps what the CLI creates with the service stopped: the printed key works once the service starts, and after a restart', async () => {
    const dataDir = await migratedPgliteDir();
    await (await startService(dataDir)).stop();
    const created = await cli(dataDir, 'environments:create', 'Production');
    expect(created).toMatchObject({ code: 0 });
    const apiKey = printedKey(created.output)!;
    expect(apiKey).toBeDefined();

    for (let start = 0; start < 2; start++) {
      const service = await startService(dataDir);
      try {
        expect(await subscribersStatus(service, apiKey)).toBe(200);
      } finally {
        await service.stop();
      }
    }
  }, 120_000);

  it('refuses a second service on the same DATA_DIR before it opens the store, and the first keeps serving', async () => {
    const dataDir = await migratedPgliteDir();
    const apiKey = 'data_dir_key_0123456789abcdef';
    const first = await startService(dataDir, { BOOTSTRAP_API_KEY: apiKey });
    try {
      const second = await runToExit('apps/api/src/main.js', [], {
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        BOOTSTRAP_API_KEY: apiKey,
      });
      expect(second.code).toBe(78);
      expect(second.output).toContain(`Invalid configuration: DATA_DIR ${dataDir} is in use by pid ${first.pid} (node `);
      expect(second.output).toContain('Stop that process first, or point DATA_DIR elsewhere.');
      expect(second.output).not.toContain('EADDRINUSE');
      expect(second.output).not.toMatch(/^\s+at /m); // the message alone, no stack trace
      expect(lockOwnerPid(dataDir)).toBe(first.pid);
      expect(await subscribersStatus(first, apiKey)).toBe(200);
    } finally {
      await first.stop();
    }
    expect(() => lockOwnerPid(dataDir)).toThrow(/ENOENT/); // released on a normal shutdown
  }, 120_000);

  it('takes over the lock of a service killed with -9: the next start serves', async () => {
    const dataDir = await migratedPgliteDir();
    const apiKey = 'data_dir_key_0123456789abcdef';
    const crashed = await startService(dataDir, { BOOTSTRAP_API_KEY: apiKey });
    await crashed.kill();
    expect(lockOwnerPid(dataDir)).toBe(crashed.pid); // left behind

    const next = await startService(dataDir, { BOOTSTRAP_API_KEY: apiKey });
    try {
      expect(lockOwnerPid(dataDir)).toBe(next.pid);
      expect(await subscribersStatus(next, apiKey)).toBe(200);
    } finally {
      await next.stop();
    }
  }, 120_000);

  it('with DATABASE_URL the CLI writes while the service runs, and the running service accepts the new key at once', async () => {
    const harness = await ServiceHarness.create(buildDir);
    try {
      await harness.startApi();
      const created = await runToExit('apps/cli/src/main.js', ['environments:create', 'Production'], {
        DATABASE_URL: harness.databaseUrl,
        STORE_ENCRYPTION_KEY: 'b'.repeat(64), // the harness's
        BOOTSTRAP_API_KEY: harness.apiKey,
      });
      expect(created).toMatchObject({ code: 0 });
      const apiKey = printedKey(created.output)!;
      expect((await harness.request('GET', '/v2/subscribers', undefined, apiKey)).status).toBe(200);
    } finally {
      await harness.close();
    }
  }, 120_000);
});
