import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { TestApp, startTestApp } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');
const ARCHITECTURE = join(ROOT, 'docs', 'architecture.md');
const COMPATIBILITY = join(ROOT, 'docs', 'compatibility.md');
const SDK_FUNCS = join(ROOT, 'node_modules', '@novu', 'api', 'src', 'funcs');

/** Every operation of `@novu/api` (one file per operation in its funcs folder): its name, method and path template. */
function sdkOperations(): { name: string; route: string }[] {
  return readdirSync(SDK_FUNCS)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => {
      const source = readFileSync(join(SDK_FUNCS, file), 'utf8');
      const method = /method: "([A-Z]+)"/.exec(source)?.[1];
      const path = /pathToFunc\(\s*"([^"]+)"/.exec(source)?.[1];
      if (!method || !path) throw new Error(`no method or path in @novu/api funcs/${file}`);
      return { name: file.replace(/\.ts$/, ''), route: `${method} ${path}` };
    });
}

/** The rows of docs/compatibility.md's table of `@novu/api` operations: name, route, and what this service does with it. */
function documentedOperations(): { name: string; route: string; here: string }[] {
  const section = readFileSync(COMPATIBILITY, 'utf8').split('\n## `@novu/api` operations\n')[1]?.split('\n#')[0] ?? '';
  return section
    .split('\n')
    .map((line) => /^\| `(\w+)` \| `([A-Z]+ [^`]+)` \| (.+) \|$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, name, route, here]) => ({ name, route, here }));
}

/** `METHOD /path → Controller` for each row of the table under "## Route map". */
function documentedRoutes(): string[] {
  const section = readFileSync(ARCHITECTURE, 'utf8').split('\n## Route map\n')[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .map((line) => /^\| `([A-Z]+) ([^`]+)` \| (\w+) \|/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, method, path, controller]) => `${method} ${path} → ${controller}`)
    .sort();
}

/** The same for every operation the controllers declare (operationId is `<Controller>_<method>`). */
function servedRoutes(document: any): string[] {
  return Object.entries<Record<string, { operationId: string }>>(document.paths)
    .flatMap(([path, operations]) =>
      Object.entries(operations).map(
        ([method, operation]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')} → ${operation.operationId.split('_')[0]}`,
      ),
    )
    .sort();
}

/** A route template with its parameters unnamed, so `/v2/workflows/{workflowId}` and `/v2/workflows/:id` compare equal. */
const shape = (route: string) => route.replace(/\{\w+\}|:\w+/g, '{}');

describe('docs/architecture.md route map', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp({ worker: false })));
  afterAll(() => t.close());

  it('lists every route the api serves, each with its controller, and no other', async () => {
    const { body } = await request(t.app.getHttpServer()).get('/api-json').expect(200);
    const documented = documentedRoutes();
    expect(documented.length).toBeGreaterThan(0);
    expect(documented).toEqual(servedRoutes(body));
  });

  it('docs/compatibility.md lists every @novu/api operation once, served or not as it is here (a NotSupportedController route is not served)', async () => {
    const { body } = await request(t.app.getHttpServer()).get('/api-json').expect(200);
    const served = new Set(
      servedRoutes(body)
        .filter((route) => !route.endsWith('→ NotSupportedController'))
        .map((route) => shape(route.split(' → ')[0])),
    );
    const actual = sdkOperations().map(({ name, route }) => ({ name, route, served: served.has(shape(route)) }));
    const documented = documentedOperations().map(({ name, route, here }) => ({ name, route, served: here.startsWith('served') }));
    expect(documented.sort((a, b) => a.name.localeCompare(b.name))).toEqual(actual.sort((a, b) => a.name.localeCompare(b.name)));
  });
});
