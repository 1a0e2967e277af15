import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DockerStage, ROOT, healthcheckArgv, interpolateAll, parseDockerfile, readCompose, readRootFile } from '../support/deploy-files';
import { runNpm } from '../support/npm';
import { ServiceHarness, ServiceProcess, buildService } from '../support/service-processes';
import { uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

/**
 * The image's start commands, run as its container runs them, without a Docker engine: the build
 * output as dist/, package.json and package-lock.json in a fresh directory, the production
 * dependencies installed there by the Dockerfile's own `npm ci --omit=dev …` (no devDependency to
 * lean on), then the Dockerfile's CMD (the api) and docker-compose.yml's worker command, each with
 * the image's ENV and its compose environment. Only the addresses change: PostgreSQL, Redis and the
 * heartbeat file are this test's (a fresh database, its own queue prefix). The health checks of the
 * Dockerfile and of docker-compose.yml run as Docker would run them.
 */
jest.setTimeout(300_000);

const stages = parseDockerfile(readRootFile('Dockerfile'));
const runtime = stages[stages.length - 1];
const compose = readCompose();

const instructions = (stage: DockerStage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);
const imageEnv = Object.fromEntries(instructions(runtime, 'ENV').map((i) => i.args.join(' ').split('=') as [string, string]));
const productionInstall = stages
  .flatMap((stage) => instructions(stage, 'RUN').map((i) => i.args))
  .find((args) => args[1] === 'ci' && args.includes('--omit=dev'))!;
const apiCommand = instructions(runtime, 'CMD')[0].args;

interface Exit {
  code: number | null;
  output: string;
}

/** Runs a health check's command as Docker does inside the container: its environment, its working directory. */
function runHealthcheck(test: string | string[], cwd: string, env: Record<string, string | undefined>): Promise<Exit> {
  const [file, ...args] = healthcheckArgv(test);
  return new Promise((done) => {
    execFile(
      file === 'node' ? process.execPath : file,
      args,
      { cwd, env: { PATH: process.env.PATH, ...env }, timeout: 10_000 },
      (error: any, stdout, stderr) => {
        done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, output: `${stdout}${stderr}` });
      },
    );
  });
}

describe("the image's start commands, run as its container runs them", () => {
  let buildDir: string;
  let appDir: string;
  let h: ServiceHarness;
  let worker: ServiceProcess;
  let installOutput = '';
  let heartbeatFile: string;
  let apiEnv: Record<string, string | undefined>;
  let workerEnv: Record<string, string | undefined>;

  beforeAll(async () => {
    buildDir = await buildService();
    appDir = mkdtempSync(join(tmpdir(), 'notify-image-'));
    // What the runtime stage holds: dist/ from the build, package.json, node_modules from the production install.
    cpSync(buildDir, join(appDir, 'dist'), { recursive: true, filter: (path) => path !== join(buildDir, 'node_modules') });
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(ROOT, file), join(appDir, file));
    const install = await runNpm(productionInstall, appDir);
    installOutput = install.output;
    if (!install.ok) throw new Error(`${productionInstall.join(' ')} failed:\n${install.output.slice(-4000)}`);

    heartbeatFile = join(appDir, 'worker-heartbeat');
    const secrets = { STORE_ENCRYPTION_KEY: randomBytes(32).toString('hex'), POSTGRES_PASSWORD: 'unused-here' };
    const services = interpolateAll(compose, secrets).services;
    // The containers' environment, less what points into the compose network (the harness's own
    // database, Redis, queue prefix and API key stand in) and the heartbeat path (one per test run).
    const containerEnv = (service: Record<string, any>) => {
      const { DATABASE_URL, REDIS_URL, BOOTSTRAP_API_KEY, ...rest } = service.environment;
      return { ...imageEnv, ...rest };
    };
    apiEnv = containerEnv(services.api);
    workerEnv = { ...containerEnv(services.worker), WORKER_HEARTBEAT_FILE: heartbeatFile };
    h = await ServiceHarness.create(appDir, {
      containers: { cwd: appDir, api: { argv: apiCommand, env: apiEnv }, worker: { argv: services.worker.command, env: workerEnv } },
    });
    await h.startApi();
    worker = await h.startWorker();
  }, 300_000);

  afterAll(async () => {
    await h?.close();
    if (appDir) rmSync(appDir, { recursive: true, force: true });
  }, 60_000);

  it('runs on production dependencies only, in production mode', () => {
    expect(installOutput).toMatch(/added \d+ packages/);
    for (const devOnly of ['typescript', 'jest', '@nestjs/testing', '@swc/core', 'supertest'])
      expect(existsSync(join(appDir, 'node_modules', devOnly))).toBe(false);
    expect(existsSync(join(appDir, 'node_modules/@nestjs/core'))).toBe(true);
    expect(imageEnv.NODE_ENV).toBe('production');
  });

  it('answers /v1/health-check, and the health checks of the Dockerfile and of compose pass', () =>
    h.withOutputs(async () => {
      const res = await fetch(`${h.baseUrl}/v1/health-check`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'ok' });
      const env = { ...apiEnv, PORT: new URL(h.baseUrl).port };
      const [dockerfileCheck] = instructions(runtime, 'HEALTHCHECK');
      expect(await runHealthcheck(['CMD', ...dockerfileCheck.args], appDir, env)).toEqual({ code: 0, output: '' });
      expect(await runHealthcheck(compose.services.api.healthcheck.test, appDir, env)).toEqual({ code: 0, output: '' });
    }));

  it('delivers a triggered in-app workflow through the worker', () =>
    h.withOutputs(async () => {
      const identifier = uniqueName('image').toLowerCase();
      await h.expect(201, 'POST', '/v1/workflows', {
        name: identifier,
        identifier,
        active: true,
        steps: [{ template: { type: 'in_app', content: 'Hi {{payload.name}}' } }],
      });
      const subscriberId = uniqueName('ada');
      const { data } = await h.expect(201, 'POST', '/v1/events/trigger', { name: identifier, to: { subscriberId }, payload: { name: 'Ada' } });
      expect(data).toMatchObject({ acknowledged: true, status: 'processed' });
      const messages = await waitFor(async () => {
        const res = await h.request('GET', `/v1/messages?subscriberId=${subscriberId}`);
        return res.status === 200 && res.body.data.length > 0 && res.body.data;
      }, 30_000);
      expect(messages).toEqual([expect.objectContaining({ channel: 'in_app', content: 'Hi Ada', transactionId: data.transactionId })]);
    }));

  it("keeps the worker's heartbeat file fresh while it consumes; compose's health check follows it", () =>
    h.withOutputs(async () => {
      const check = compose.services.worker.healthcheck.test;
      const first = statSync(heartbeatFile).mtimeMs;
      expect(Date.now() - first).toBeLessThan(10_000);
      const touched = await waitFor(async () => statSync(heartbeatFile).mtimeMs > first, 15_000);
      expect(touched).toBe(true);
      expect(await runHealthcheck(check, appDir, workerEnv)).toEqual({ code: 0, output: '' });

      const oneMinuteAgo = new Date(Date.now() - 60_000);
      await worker.stop();
      expect(existsSync(heartbeatFile)).toBe(false); // removed on shutdown
      expect((await runHealthcheck(check, appDir, workerEnv)).code).not.toBe(0);
      writeFileSync(heartbeatFile, '');
      utimesSync(heartbeatFile, oneMinuteAgo, oneMinuteAgo);
      expect((await runHealthcheck(check, appDir, workerEnv)).code).not.toBe(0);
    }));
});
