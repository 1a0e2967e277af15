import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  DockerStage,
  MissingVariableError,
  ROOT,
  dockerignore,
  healthcheckArgv,
  interpolate,
  interpolateAll,
  parseDockerfile,
  parseDotenv,
  readCompose,
  readRootFile,
} from '../support/deploy-files';

/**
 * The deployment files as Docker and Compose read them, checked without a Docker engine: the image is
 * built in stages and runs as a non-root user with the package's start commands; the compose project
 * restarts and health-checks every service, starts services only on healthy dependencies, mounts no
 * source, scales workers, and refuses to start without its secrets. The image's commands themselves
 * run in image-commands.test.ts.
 */

const packageJson = JSON.parse(readRootFile('package.json'));
const startCommand = (script: string): string[] => packageJson.scripts[script].split(/\s+/);
const secrets = { STORE_ENCRYPTION_KEY: 'c'.repeat(64), POSTGRES_PASSWORD: 'compose-test-password' };

describe('Dockerfile', () => {
  const stages = parseDockerfile(readRootFile('Dockerfile'));
  const runtime = stages[stages.length - 1];
  const all = (stage: DockerStage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);
  const runs = (stage: DockerStage) => all(stage, 'RUN').map((i) => i.args.join(' '));
  const stageNamed = (name: string | undefined) => stages.find((stage) => stage.name === name);

  it('builds in one stage (npm ci with dev dependencies, npm run build) and installs production dependencies in another', () => {
    const build = stages.find((stage) => runs(stage).some((cmd) => cmd === 'npm run build'));
    expect(build).toBeDefined();
    expect(runs(build!).some((cmd) => /^npm ci\b/.test(cmd) && !cmd.includes('--omit=dev'))).toBe(true);
    const production = stages.find((stage) => runs(stage).some((cmd) => /^npm ci\b.*--omit=dev/.test(cmd)));
    expect(production).toBeDefined();
    expect(production).not.toBe(build);
    expect(runs(runtime)).toEqual([]); // the runtime stage only copies: no compiler, no dev dependency, no npm cache
  });

  it('runs a slim Node 20 image as production: dist from the build, node_modules from the production install, package.json', () => {
    expect(runtime.from).toMatch(/^node:20(\.\d+)*-(.+-)?(slim|alpine)/);
    expect(all(runtime, 'ENV').map((i) => i.args.join(' '))).toContain('NODE_ENV=production');
    const copies = all(runtime, 'COPY').map((i) => ({ from: i.flags.from, source: i.args[0], target: i.args[1] }));
    const copyOf = (target: string) => copies.find((copy) => copy.target.replace(/^\.\/|\/$/g, '') === target);
    const packageCopy = copies.find((copy) => copy.source === 'package.json');
    expect(runs(stageNamed(copyOf('dist')?.from)!)).toContain('npm run build');
    expect(runs(stageNamed(copyOf('node_modules')?.from)!).some((cmd) => cmd.includes('--omit=dev'))).toBe(true);
    expect(packageCopy).toEqual({ from: undefined, source: 'package.json', target: './' });
    expect(copies).toHaveLength(3);
  });

  it('runs as a non-root user', () => {
    const users = all(runtime, 'USER').map((i) => i.args[0]);
    expect(users.length).toBeGreaterThan(0);
    expect(['root', '0']).not.toContain(users[users.length - 1].split(':')[0]);
  });

  it('starts the api as `npm run start:api` does, and health-checks it on /v1/health-check', () => {
    const [cmd] = all(runtime, 'CMD');
    expect(cmd.execForm).toBe(true); // node as PID 1 gets SIGTERM itself and shuts down cleanly
    expect(cmd.args).toEqual(startCommand('start:api'));
    const [healthcheck] = all(runtime, 'HEALTHCHECK');
    expect(healthcheck.execForm).toBe(true);
    expect(healthcheck.args.join(' ')).toContain('/v1/health-check');
    expect(all(runtime, 'EXPOSE').map((i) => i.args[0])).toEqual(['3000']);
  });

  it('copies into the build context only files that exist and that .dockerignore lets in', () => {
    const ignore = dockerignore(readRootFile('.dockerignore'));
    const sources = stages.flatMap((stage) =>
      all(stage, 'COPY')
        .filter((i) => !i.flags.from)
        .flatMap((i) => i.args.slice(0, -1)),
    );
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect({ source, exists: existsSync(resolve(ROOT, source)), ignored: ignore.excludes(source) }).toEqual({ source, exists: true, ignored: false });
    }
  });
});

describe('.dockerignore', () => {
  const ignore = dockerignore(readRootFile('.dockerignore'));

  it.each(['node_modules', 'libs/kernel/node_modules', 'dist', '.data', '.git', '.env', 'coverage', 'test', 'npm-debug.log'])(
    'keeps %s out of the build context',
    (path) => {
      expect(ignore.excludes(path)).toBe(true);
    },
  );

  it.each(['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'apps/api/src/main.ts', 'libs/kernel/src/index.ts'])(
    'lets %s in',
    (path) => {
      expect(ignore.excludes(path)).toBe(false);
    },
  );
});

describe('docker-compose.yml', () => {
  const raw = readCompose();
  const compose = interpolateAll(raw, secrets);
  const services: Record<string, any> = compose.services;
  const envExample = parseDotenv(readRootFile('.env.example'));

  it('has PostgreSQL, Redis, the api and the worker by default; MongoDB with its own api and worker, and the inbound mail receiver, under profiles', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'api-mongodb', 'inbound-mail', 'mongodb', 'postgres', 'redis', 'worker', 'worker-mongodb']);
    const byDefault = Object.keys(services).filter((name) => services[name].profiles === undefined);
    expect(byDefault.sort()).toEqual(['api', 'postgres', 'redis', 'worker']);
    for (const name of ['mongodb', 'api-mongodb', 'worker-mongodb']) expect(services[name].profiles).toEqual(['mongodb']);
    expect(services['inbound-mail'].profiles).toEqual(['inbound-mail']);
  });

  it.each(['postgres', 'redis', 'api', 'worker', 'inbound-mail', 'mongodb', 'api-mongodb', 'worker-mongodb'])(
    '%s restarts unless stopped and has a health check',
    (name) => {
      const service = services[name];
      expect(service.restart).toBe('unless-stopped');
      expect(service.healthcheck?.disable).not.toBe(true);
      expect(healthcheckArgv(service.healthcheck.test).length).toBeGreaterThan(0);
    },
  );

  it('starts a service only once what it depends on is healthy', () => {
    for (const name of ['api', 'worker', 'inbound-mail']) expect(Object.keys(services[name].depends_on).sort()).toEqual(['postgres', 'redis']);
    for (const name of ['api-mongodb', 'worker-mongodb']) expect(Object.keys(services[name].depends_on).sort()).toEqual(['mongodb', 'redis']);
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, condition] of Object.entries<any>(service.depends_on ?? {})) {
        expect({ name, dependency, condition: condition.condition }).toEqual({ name, dependency, condition: 'service_healthy' });
        expect(services[dependency].healthcheck).toBeDefined();
      }
    }
  });

  it('runs the api and the workers from the image built from this repository, with no source mounted', () => {
    for (const name of ['api', 'worker', 'inbound-mail', 'api-mongodb', 'worker-mongodb']) {
      const service = services[name];
      expect([service.build, service.build?.context]).toContain('.');
      expect(service.image).toBe(services.api.image);
      expect(service.volumes).toBeUndefined();
      expect(service.working_dir).toBeUndefined();
    }
    for (const name of ['api', 'api-mongodb']) expect(services[name].command).toEqual(startCommand('start:api'));
    for (const name of ['worker', 'worker-mongodb', 'inbound-mail']) expect(services[name].command).toEqual(startCommand('start:worker'));
  });

  it('mounts named volumes only (no bind mount anywhere)', () => {
    const named = Object.keys(compose.volumes ?? {});
    for (const [name, service] of Object.entries(services)) {
      for (const volume of service.volumes ?? []) {
        const source = typeof volume === 'string' ? volume.split(':')[0] : volume.source;
        expect({ name, source, named: named.includes(source) }).toEqual({ name, source, named: true });
        if (typeof volume !== 'string') expect(volume.type ?? 'volume').toBe('volume');
      }
    }
  });

  it('lets workers scale: no container name, no published port', () => {
    for (const name of ['worker', 'worker-mongodb', 'postgres', 'redis', 'mongodb']) expect(services[name].ports).toBeUndefined();
    for (const service of Object.values(services)) expect(service.container_name).toBeUndefined();
    expect(services['api-mongodb'].ports).toEqual(services.api.ports);
  });

  it('gives the workers a heartbeat file that their health check reads', () => {
    for (const name of ['worker', 'worker-mongodb', 'inbound-mail']) {
      expect(services[name].environment.WORKER_HEARTBEAT_FILE).toBe('/tmp/worker-heartbeat');
      expect(healthcheckArgv(services[name].healthcheck.test).join(' ')).toContain('WORKER_HEARTBEAT_FILE');
    }
  });

  it('runs the inbound mail receiver in one worker of its own, on 2525 inside, published on INBOUND_MAIL_PORT (25 unless set)', () => {
    const mail = services['inbound-mail'];
    expect(mail.environment.INBOUND_MAIL_PORT).toBe('2525');
    expect(services.worker.environment.INBOUND_MAIL_PORT).toBeUndefined(); // scaled workers listen on nothing
    expect(services.api.environment.INBOUND_MAIL_PORT).toBeUndefined();
    expect(mail.ports).toEqual(['25:2525']);
    expect(interpolate(raw.services['inbound-mail'].ports[0], { INBOUND_MAIL_PORT: '2526' })).toBe('2526:2525');
  });

  it('passes the delivery-event, outbound-webhook and reply-callback settings to every service process, empty leaving the defaults', () => {
    const settings = [
      'API_PUBLIC_URL',
      'SUPPRESS_BOUNCED_ADDRESSES',
      'INBOUND_WEBHOOK_BODY_LIMIT_BYTES',
      'WEBHOOK_RETRY_DELAYS',
      'WEBHOOK_TIMEOUT_SECONDS',
      'INBOUND_MAIL_DOMAIN',
    ];
    for (const name of ['api', 'worker', 'inbound-mail', 'api-mongodb', 'worker-mongodb']) {
      for (const setting of settings) {
        expect({ name, setting, value: raw.services[name].environment[setting] }).toEqual({ name, setting, value: `\${${setting}:-}` });
        expect(services[name].environment[setting]).toBe('');
      }
    }
    const configured = interpolateAll(raw, { ...secrets, INBOUND_MAIL_DOMAIN: 'replies.example.com' });
    expect(configured.services.worker.environment.INBOUND_MAIL_DOMAIN).toBe('replies.example.com');
  });

  it('points the api and the worker at the postgres and redis services with their credentials', () => {
    const pg = services.postgres.environment;
    for (const name of ['api', 'worker']) {
      const env = services[name].environment;
      const database = new URL(env.DATABASE_URL);
      expect([database.protocol, database.hostname, database.port]).toEqual(['postgres:', 'postgres', '5432']);
      expect(decodeURIComponent(database.username)).toBe(pg.POSTGRES_USER ?? 'postgres');
      expect(decodeURIComponent(database.password)).toBe(secrets.POSTGRES_PASSWORD);
      expect(database.pathname).toBe(`/${pg.POSTGRES_DB ?? pg.POSTGRES_USER}`);
      const redis = new URL(env.REDIS_URL);
      expect([redis.protocol, redis.hostname]).toEqual(['redis:', 'redis']);
      expect(env.STORE_ENCRYPTION_KEY).toBe(secrets.STORE_ENCRYPTION_KEY);
      expect(env.NODE_ENV).toBeUndefined(); // the image sets it
    }
    expect(services.postgres.healthcheck.test).toEqual(expect.arrayContaining([pg.POSTGRES_USER]));
  });

  it("points the mongodb profile's api and worker at its replica set, with the same Redis and key", () => {
    for (const name of ['api-mongodb', 'worker-mongodb']) {
      const env = services[name].environment;
      const database = new URL(env.DATABASE_URL);
      expect([database.protocol, database.hostname, database.port, database.pathname]).toEqual(['mongodb:', 'mongodb', '27017', '/notify']);
      expect(database.searchParams.get('replicaSet')).toBe('rs0');
      expect(env.REDIS_URL).toBe(services.api.environment.REDIS_URL);
      expect(env.STORE_ENCRYPTION_KEY).toBe(secrets.STORE_ENCRYPTION_KEY);
      expect(env.NODE_ENV).toBeUndefined();
    }
  });

  it('runs MongoDB as a single-node replica set that its health check initiates and reports healthy once primary', () => {
    const { command, healthcheck } = services.mongodb;
    expect(command).toEqual(expect.arrayContaining(['mongod', '--replSet', 'rs0']));
    const check = healthcheckArgv(healthcheck.test).join(' ');
    expect(check).toContain("rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: 'mongodb:27017' }] })");
    expect(check).toContain('isWritablePrimary');
  });

  it('refuses to start without STORE_ENCRYPTION_KEY or POSTGRES_PASSWORD, naming the variable', () => {
    for (const name of ['api', 'worker']) expect(raw.services[name].environment.STORE_ENCRYPTION_KEY).toMatch(/^\$\{STORE_ENCRYPTION_KEY:\?.+\}$/);
    for (const missing of Object.keys(secrets)) {
      const without = { ...secrets, [missing]: '' }; // as `cp .env.example .env` leaves it
      expect(() => interpolateAll(raw, without)).toThrow(MissingVariableError);
      expect(() => interpolateAll(raw, without)).toThrow(new RegExp(`^${missing}: set ${missing} in \\.env`));
    }
  });

  it('leaves the optional settings to the service defaults when .env leaves them empty', () => {
    expect(raw.services.api.environment.BOOTSTRAP_API_KEY).toBe('${BOOTSTRAP_API_KEY:-}');
    expect(services.api.environment.BOOTSTRAP_API_KEY).toBe('');
    expect(services.api.ports).toEqual(['3000:3000']);
    expect(interpolate(raw.services.api.ports[0], { API_PORT: '8080' })).toBe('8080:3000');
  });

  it('documents in .env.example every variable it reads, and nothing else', () => {
    const used = new Set<string>();
    interpolateAll(raw, secrets, used);
    expect(Object.keys(envExample).sort()).toEqual([...used].sort());
    expect(envExample.STORE_ENCRYPTION_KEY).toBe(''); // a placeholder value would be a shared secret
    expect(readRootFile('.env.example')).toContain('openssl rand -hex 32');
  });
});
