import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * Files of a small monorepo laid out like this one; each imports what its comment says. The
 * cruise runs with the real .dependency-cruiser.cjs and the real path aliases, so a rule that
 * misses a violation (or refuses an allowed import) fails here, not only on some future change.
 */
const FIXTURE: Record<string, string[]> = {
  // stand-ins for the libraries the imports below resolve to
  'libs/kernel/src/index.ts': [],
  'libs/delivery/src/index.ts': [],
  'libs/store-sql/src/index.ts': [],
  'libs/queue/src/index.ts': [],
  'libs/redis/src/index.ts': [],
  'libs/providers/src/index.ts': [],
  'libs/metrics/src/index.ts': [],
  'libs/bootstrap/src/index.ts': [],
  'apps/api/src/index.ts': [],
  'apps/api/src/core.module.ts': [],
  'apps/api/src/topics/topic.dto.ts': [],
  'apps/api/src/subscribers/subscriber.dto.ts': [],
  'apps/api/src/inbox/inbox.dto.ts': [],
  'apps/api/src/messages/message.dto.ts': [],
  'apps/api/src/shared-dto/subscriber.dto.ts': [],
  'apps/worker/src/delivery-worker.module.ts': [],

  // refused: one app importing another, by relative path or by alias
  'apps/worker/src/worker.module.ts': ['../../api/src/core.module'],
  'apps/cli/src/cli.module.ts': ['@app/http-api'],
  'apps/api/src/app.module.ts': ['../../worker/src/delivery-worker.module', './health/health.controller', '@app/bootstrap', '@app/delivery'],
  // refused: an adapter library importing another
  'libs/queue/src/embedded/embedded-job-queue.ts': ['@app/store-sql', '@app/kernel'],
  'libs/metrics/src/metrics.module.ts': ['@app/queue'],
  'libs/redis/src/redis.probe.ts': ['../../providers/src/index'],
  // refused: a library importing the composition library
  'libs/delivery/src/application/trigger.use-case.ts': ['@app/bootstrap'],
  'libs/store-sql/src/sql.module.ts': ['@app/bootstrap'],

  // refused: a context folder of apps/api importing another context (a subfolder of one too) or the root files that
  // compose the app; a shared folder of apps/api (http, docs, shared-dto) importing a context
  'apps/api/src/topics/topics.controller.ts': ['./topic.dto', '../subscribers/subscriber.dto', '../app.module'],
  'apps/api/src/subscribers/preferences/preferences.mapper.ts': ['../../inbox/inbox.dto', '../subscriber.dto', '../../shared-dto/subscriber.dto'],
  'apps/api/src/shared-dto/message.dto.ts': ['./subscriber.dto', '../http/guard', '../messages/message.dto'],
  'apps/api/src/docs/api-responses.ts': ['../topics/topic.dto'],

  // allowed: an app's own folder and libraries; the composition library wiring several adapters
  'apps/api/src/health/health.controller.ts': ['@app/kernel', '../http/guard'],
  'apps/api/src/messages/messages.controller.ts': ['./message.dto', '../shared-dto/message.dto', '../http/guard', '../docs/api-responses', '@app/delivery'],
  'apps/api/src/http/guard.ts': [],
  'libs/bootstrap/src/core.module.ts': ['@app/store-sql', '@app/queue', '@app/redis', '@app/providers', '@app/metrics', '@app/kernel'],
  'libs/store-sql/src/queue/sql-queue-job.store.ts': ['@app/kernel', '../sql-client'],
  'libs/store-sql/src/sql-client.ts': [],
};

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

function cruiseFixture(): Violation[] {
  const dir = mkdtempSync(join(tmpdir(), 'layering-'));
  try {
    for (const [file, imports] of Object.entries(FIXTURE)) {
      mkdirSync(join(dir, dirname(file)), { recursive: true });
      const lines = imports.map((target, i) => `import * as m${i} from '${target}';`);
      lines.push(`export const used = [${imports.map((_, i) => `m${i}`).join(', ')}];`);
      writeFileSync(join(dir, file), `${lines.join('\n')}\n`);
    }
    const { compilerOptions } = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8'));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { ...compilerOptions.paths, '@app/http-api': ['apps/api/src'] } } }),
    );
    const run = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
        'apps',
        'libs',
        '--config',
        join(ROOT, '.dependency-cruiser.cjs'),
        '--output-type',
        'json',
      ],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    if (!run.stdout) throw new Error(`depcruise printed nothing: ${run.stderr}`);
    const result = JSON.parse(run.stdout);
    expect(result.summary.totalCruised).toBe(Object.keys(FIXTURE).length);
    return result.summary.violations;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('layering rules (.dependency-cruiser.cjs) on a fixture tree', () => {
  let violations: Violation[];
  beforeAll(() => (violations = cruiseFixture()), 60_000);

  const broken = (rule: string) =>
    violations
      .filter((violation) => violation.rule.name === rule)
      .map(({ from, to }) => `${from} → ${to}`)
      .sort();

  it('apps-do-not-import-each-other: an app importing another app, by path or alias, is refused', () => {
    expect(broken('apps-do-not-import-each-other')).toEqual([
      'apps/api/src/app.module.ts → apps/worker/src/delivery-worker.module.ts',
      'apps/cli/src/cli.module.ts → apps/api/src/index.ts',
      'apps/worker/src/worker.module.ts → apps/api/src/core.module.ts',
    ]);
  });

  it('adapters-do-not-import-each-other: an adapter library importing another is refused', () => {
    expect(broken('adapters-do-not-import-each-other')).toEqual([
      'libs/metrics/src/metrics.module.ts → libs/queue/src/index.ts',
      'libs/queue/src/embedded/embedded-job-queue.ts → libs/store-sql/src/index.ts',
      'libs/redis/src/redis.probe.ts → libs/providers/src/index.ts',
    ]);
  });

  it('only-apps-import-bootstrap: a library importing the composition library is refused', () => {
    expect(broken('only-apps-import-bootstrap')).toEqual([
      'libs/delivery/src/application/trigger.use-case.ts → libs/bootstrap/src/index.ts',
      'libs/store-sql/src/sql.module.ts → libs/bootstrap/src/index.ts',
    ]);
  });

  it('api-contexts-do-not-import-each-other: a context of apps/api importing another context or a root file is refused', () => {
    expect(broken('api-contexts-do-not-import-each-other')).toEqual([
      'apps/api/src/subscribers/preferences/preferences.mapper.ts → apps/api/src/inbox/inbox.dto.ts',
      'apps/api/src/topics/topics.controller.ts → apps/api/src/app.module.ts',
      'apps/api/src/topics/topics.controller.ts → apps/api/src/subscribers/subscriber.dto.ts',
    ]);
  });

  it("api-shared-folders-import-no-context: apps/api's http, docs or shared-dto importing a context is refused", () => {
    expect(broken('api-shared-folders-import-no-context')).toEqual([
      'apps/api/src/docs/api-responses.ts → apps/api/src/topics/topic.dto.ts',
      'apps/api/src/shared-dto/message.dto.ts → apps/api/src/messages/message.dto.ts',
    ]);
  });

  it('allows an app its own folder and the libraries, a context of apps/api its shared folders, and the composition library every adapter', () => {
    const refused = new Set(violations.map((violation) => violation.from));
    expect(refused).not.toContain('apps/api/src/health/health.controller.ts');
    expect(refused).not.toContain('apps/api/src/messages/messages.controller.ts');
    expect(refused).not.toContain('libs/bootstrap/src/core.module.ts');
    expect(refused).not.toContain('libs/store-sql/src/queue/sql-queue-job.store.ts');
    expect(violations.filter((violation) => violation.from === 'apps/api/src/app.module.ts')).toHaveLength(1);
    expect(violations).toHaveLength(13);
  });
});
