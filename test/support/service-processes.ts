import { ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { Pool } from 'pg';
import { TEST_REDIS_URL } from './test-env';
import { migratedPgliteDir } from './pglite-template';
import { madeOnce, runPath } from './test-run';

/**
 * Production mode as an operator runs it: the built service (`node dist/apps/api/src/main.js
 * --mode=api` and `node dist/apps/worker/src/main.js`) as separate processes on PostgreSQL and
 * Redis. Each harness has its own database and its own QUEUE_PREFIX, so runs never share state,
 * and close() kills every process it started, drops the database and deletes its Redis keys.
 */

const ROOT = resolve(__dirname, '../..');
const run = promisify(execFile);
/** The server the harness creates its database on (the `test` database is only used to connect). */
export const ADMIN_DATABASE_URL = process.env.TEST_ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const TERMINAL_SIGNAL_WAIT_MS = 10_000;

// A crashed test run must not leave services behind: SIGKILL whatever is still alive on exit.
const liveChildren = new Set<ChildProcess>();
process.once('exit', () => liveChildren.forEach((child) => child.kill('SIGKILL')));

/**
 * For every process of the built service a test starts, beside its configuration: V8's compiled code
 * kept between them (v8-compile-cache, in the run's directory), so that each start does not compile
 * its 3,000 modules again (modules with import() excepted; data-dir.e2e's children 116 -> 104 s of CPU).
 * The image's own commands go without.
 */
export function compileCacheEnv(): Record<string, string> {
  return { NODE_OPTIONS: `--require ${require.resolve('./compile-cache.js')}`, V8_COMPILE_CACHE_CACHE_DIR: runPath('v8-compile-cache') };
}

/**
 * The service built the way `npm run build` does, once per test run (test-run.ts), outside the
 * repository (parallel runs never share a dist/). Files only read it, and it is removed with the run.
 */
export function buildService(): Promise<string> {
  return madeOnce('build', async (outDir) => {
    const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);
    // tsc still emits when some file has a type error; the config e2e test reports those (buildTypeErrors).
    const typeErrors = await run(bin('tsc'), ['-p', 'tsconfig.build.json', '--outDir', outDir], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }).then(
      () => '',
      (error) => `${error.stdout ?? ''}${error.stderr ?? ''}` || String(error),
    );
    writeFileSync(`${outDir}.type-errors`, typeErrors);
    await run(bin('tsc-alias'), ['-p', 'tsconfig.build.json', '--outDir', outDir], { cwd: ROOT });
    symlinkSync(join(ROOT, 'node_modules'), join(outDir, 'node_modules'), 'dir');
  });
}

/** What tsc reported while making the build of buildService() (empty: none). */
export function buildTypeErrors(buildDir: string): string {
  return readFileSync(`${buildDir}.type-errors`, 'utf8');
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

export interface ServiceProcess {
  readonly name: string;
  readonly child: ChildProcess;
  readonly pid: number;
  output(): string;
  /** Resolves when the process has exited (for any reason). */
  readonly exited: Promise<void>;
  /** SIGTERM, then SIGKILL if it has not exited within 10 s. */
  stop(): Promise<void>;
  /** kill -9: no shutdown hooks, held queue locks expire as after a crash. */
  kill(): Promise<void>;
}

export interface JsonResponse {
  status: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

export interface ServiceHarnessOptions {
  /** Extra environment for every process (e.g. WORKER_CONCURRENCY). */
  env?: Record<string, string>;
  /** A Redis of the test's own (e.g. one it restarts); default the shared one. */
  redisUrl?: string;
  /** A PostgreSQL server of the test's own (e.g. one it crashes), as an admin URL; default ADMIN_DATABASE_URL. */
  adminDatabaseUrl?: string;
  /**
   * Run the api and the worker as their containers do, in place of the build's scripts: each its own
   * command line (`node …`, meaning this Node) from `cwd`, with its environment over the harness's.
   */
  containers?: { cwd: string; api?: ContainerCommand; worker?: ContainerCommand };
}

export interface ContainerCommand {
  argv: string[];
  env?: Record<string, string | undefined>;
}

export class ServiceHarness {
  readonly apiKey = `test_${randomBytes(16).toString('hex')}`;
  readonly queuePrefix = `test_${randomBytes(6).toString('hex')}`;
  readonly databaseName = `notify_${randomBytes(6).toString('hex')}`;
  readonly databaseUrl: string;
  /** A pool on the harness's database, for assertions that count rows. */
  readonly sql: Pool;
  readonly redis: Redis;
  private readonly processes: ServiceProcess[] = [];
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private apiPort?: number;
  private databaseCreated = false;
  private readonly dataDirs: string[] = [];

  private constructor(
    private readonly buildDir: string,
    private readonly options: ServiceHarnessOptions,
  ) {
    const url = new URL(options.adminDatabaseUrl ?? ADMIN_DATABASE_URL);
    url.pathname = `/${this.databaseName}`;
    this.databaseUrl = url.toString();
    this.sql = new Pool({ connectionString: this.databaseUrl, max: 4 });
    // pool.end() resolves before its idle connections have closed; DROP DATABASE … WITH (FORCE) in
    // close() then terminates them, and an idle connection's error is the pool's to report: expected here.
    this.sql.on('error', () => undefined);
    this.redis = new Redis(options.redisUrl ?? TEST_REDIS_URL, { maxRetriesPerRequest: 3 });
  }

  /** Creates a fresh database for a build from buildService(); no process runs yet. */
  static async create(buildDir: string, options: ServiceHarnessOptions = {}): Promise<ServiceHarness> {
    const harness = new ServiceHarness(buildDir, options);
    const admin = new Pool({ connectionString: options.adminDatabaseUrl ?? ADMIN_DATABASE_URL, max: 1 });
    try {
      await admin.query(`CREATE DATABASE ${harness.databaseName}`);
      harness.databaseCreated = true;
    } finally {
      await admin.end();
    }
    return harness;
  }

  get baseUrl(): string {
    if (!this.apiPort) throw new Error('The api process is not started');
    return `http://127.0.0.1:${this.apiPort}`;
  }

  /** The processes' environment; an `undefined` in `extra` removes the variable. */
  private env(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: this.databaseUrl,
      REDIS_URL: this.options.redisUrl ?? TEST_REDIS_URL,
      QUEUE_PREFIX: this.queuePrefix,
      STORE_ENCRYPTION_KEY: 'b'.repeat(64),
      BOOTSTRAP_API_KEY: this.apiKey,
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
      LOG_LEVEL: 'warn',
      ...(this.options.containers ? {} : compileCacheEnv()),
      ...this.options.env,
      ...extra,
    };
    for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
    return env;
  }

  private spawnProcess(name: string, script: string, args: string[], env: Record<string, string | undefined>): ServiceProcess {
    const container = this.options.containers?.[name as 'api' | 'worker'];
    if (container && container.argv[0] !== 'node') throw new Error(`the ${name} command must start with node: ${container.argv.join(' ')}`);
    const argv = container ? container.argv.slice(1) : [join(this.buildDir, script), ...args];
    const cwd = container ? this.options.containers!.cwd : this.buildDir;
    const child = spawn(process.execPath, argv, { cwd, env: this.env({ ...container?.env, ...env }) });
    liveChildren.add(child);
    let output = '';
    const keep = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.length > 200_000) output = output.slice(-100_000); // enough to explain a failure
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const exited = new Promise<void>((done) => child.once('exit', () => (liveChildren.delete(child), done())));
    const alive = () => child.exitCode === null && child.signalCode === null;
    const processHandle: ServiceProcess = {
      name,
      child,
      pid: child.pid!,
      output: () => output,
      exited,
      async stop() {
        if (alive()) child.kill('SIGTERM');
        const timer = setTimeout(() => alive() && child.kill('SIGKILL'), TERMINAL_SIGNAL_WAIT_MS);
        await exited;
        clearTimeout(timer);
      },
      async kill() {
        if (alive()) child.kill('SIGKILL');
        await exited;
      },
    };
    this.processes.push(processHandle);
    return processHandle;
  }

  /** Starts `main.js --mode=api` and waits for its health check. */
  startApi(): Promise<ServiceProcess> {
    return this.startHttpProcess('api', ['--mode=api'], {});
  }

  /**
   * Starts the embedded mode (`main.js`, one process: PGlite in a new DATA_DIR, the store's own
   * queue, no PostgreSQL or Redis) and waits for its health check. The DATA_DIR is a copy of the
   * run's migrated PGlite (no environment in it yet): a PGlite made from nothing spends tens of
   * seconds of CPU on a loaded machine in initdb. The start on an empty DATA_DIR is config.e2e's.
   */
  async startEmbedded(): Promise<ServiceProcess> {
    const dataDir = await migratedPgliteDir();
    this.dataDirs.push(dataDir);
    return this.startHttpProcess('embedded', [], { DATABASE_URL: undefined, REDIS_URL: undefined, STORE_ENCRYPTION_KEY: undefined, DATA_DIR: dataDir });
  }

  /**
   * A free port can be taken by another suite's process between freePort() and the listen: then this
   * process exits with EADDRINUSE while the other one answers the health check. So the answer must
   * also accept this harness's API key (another process refuses it), and a lost port is tried again.
   */
  private async startHttpProcess(name: string, args: string[], env: Record<string, string | undefined>, tries = 3): Promise<ServiceProcess> {
    const port = await freePort();
    const api = this.spawnProcess(name, 'apps/api/src/main.js', args, { HOST: '127.0.0.1', PORT: String(port), ...env });
    const apiKey = this.env(env).BOOTSTRAP_API_KEY;
    for (let attempt = 0; attempt < 600; attempt++) {
      if (api.child.exitCode !== null) {
        if (tries > 1 && api.output().includes('EADDRINUSE')) return this.startHttpProcess(name, args, env, tries - 1);
        throw new Error(`the ${name} process exited with ${api.child.exitCode}:\n${api.output()}`);
      }
      const healthy = await fetch(`http://127.0.0.1:${port}/v1/health-check`).then(
        (r) => r.ok,
        () => false,
      );
      const ours =
        healthy &&
        (!apiKey ||
          (await fetch(`http://127.0.0.1:${port}/v1/environments/me`, { headers: { Authorization: `ApiKey ${apiKey}` } }).then(
            (r) => r.status !== 401,
            () => false,
          )));
      if (ours) {
        this.apiPort = port;
        return api;
      }
      await sleep(100);
    }
    await api.kill();
    throw new Error(`the ${name} process did not become healthy within 60 s:\n${api.output()}`);
  }

  /** Starts a worker process and waits until it consumes the steps queue. */
  async startWorker(): Promise<ServiceProcess> {
    const before = await this.consumerCount();
    const worker = this.spawnProcess('worker', 'apps/worker/src/main.js', [], {});
    for (let attempt = 0; attempt < 600; attempt++) {
      if (worker.child.exitCode !== null) throw new Error(`a worker exited with ${worker.child.exitCode}:\n${worker.output()}`);
      if ((await this.consumerCount()) > before) return worker;
      await sleep(100);
    }
    await worker.kill();
    throw new Error(`a worker did not start consuming within 60 s:\n${worker.output()}`);
  }

  /** Bull names each consumer's blocking connection `<prefix>:<base64(queue)>`: count the steps queue's. */
  async consumerCount(queueName = 'steps'): Promise<number> {
    const name = `${this.queuePrefix}:${Buffer.from(queueName).toString('base64')}`;
    const list = (await this.redis.client('LIST')) as string;
    return list.split('\n').filter((line) => line.split(' ').some((field) => field === `name=${name}`)).length;
  }

  /** Output of every process started, for failure messages. */
  outputs(): string {
    return this.processes.map((p) => `--- ${p.name} ${p.pid} ---\n${p.output().slice(-4000)}`).join('\n');
  }

  /** Runs `work`; when it fails, its error's message ends with what every process printed. */
  async withOutputs<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      (error as Error).message += `\n${this.outputs()}`;
      throw error;
    }
  }

  /** A JSON request to the api with the bootstrap key, on a keep-alive connection. */
  request(method: string, path: string, body?: unknown, apiKey = this.apiKey): Promise<JsonResponse> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolveResponse, reject) => {
      const req = httpRequest(
        `${this.baseUrl}${path}`,
        {
          method,
          agent: this.agent,
          headers: {
            Authorization: `ApiKey ${apiKey}`,
            ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              // not JSON: keep the text
            }
            resolveResponse({ status: res.statusCode ?? 0, body: parsed, headers: res.headers });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Like request(), but fails with the response when the status is not `expected`. */
  async expect(expected: number, method: string, path: string, body?: unknown): Promise<any> {
    const res = await this.request(method, path, body);
    if (res.status !== expected) throw new Error(`${method} ${path} answered ${res.status}, not ${expected}: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** Kills every process still running, drops the database and deletes the prefix's Redis keys. Never throws. */
  async close(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.kill().catch(() => undefined)));
    for (const dir of this.dataDirs) rmSync(dir, { recursive: true, force: true });
    this.agent.destroy();
    await this.sql.end().catch(() => undefined);
    await this.deleteRedisKeys().catch(() => undefined);
    this.redis.disconnect();
    if (this.databaseCreated) {
      const admin = new Pool({ connectionString: this.options.adminDatabaseUrl ?? ADMIN_DATABASE_URL, max: 1 });
      admin.on('error', () => undefined);
      await admin.query(`DROP DATABASE IF EXISTS ${this.databaseName} WITH (FORCE)`).catch(() => undefined);
      await admin.end().catch(() => undefined);
    }
  }

  private async deleteRedisKeys(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.queuePrefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await this.redis.unlink(...keys);
    } while (cursor !== '0');
  }
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
