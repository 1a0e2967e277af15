import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { TestApp, startTestApp } from '../support/test-app';

const ARCHITECTURE = join(__dirname, '..', '..', 'docs', 'architecture.md');

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
});
