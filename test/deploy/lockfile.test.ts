import { rmSync } from 'node:fs';
import { readRootFile } from '../support/deploy-files';
import { packageCopy, runNpm } from '../support/npm';

/**
 * `npm ci` installs exactly package-lock.json, and refuses a lockfile out of step with package.json.
 * npm 11 also refuses one that lacks an entry for another platform's optional package (e.g. macOS
 * builds of @swc/core), which npm 10 and npm 11 write on any platform. The image's Node 20 ships
 * npm 10; developers and CI here use npm 11: both must accept it. A dry run checks the lockfile
 * against package.json without installing (a few seconds each).
 */
jest.setTimeout(180_000);

describe('package-lock.json', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it.each([
    ['the npm on PATH', ['npm']],
    ['npm 10 (the one in node:20 images)', ['npx', '-y', 'npm@10']],
  ])('is accepted by npm ci of %s', async (_name, npm) => {
    const dir = packageCopy('notify-lockfile-');
    dirs.push(dir);
    const result = await runNpm([...npm, 'ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], dir);
    expect({ ok: result.ok, output: result.ok ? '' : result.output.slice(-4000) }).toEqual({ ok: true, output: '' });
  });

  it('lists every platform build of the packages that ship native binaries per platform', () => {
    const { packages } = JSON.parse(readRootFile('package-lock.json'));
    const missing: string[] = [];
    for (const [path, entry] of Object.entries<any>(packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        // Node's resolution: the nearest node_modules from the package's own folder up to the root.
        const holders = path.split('/node_modules/').map((_, i, parts) => parts.slice(0, parts.length - i).join('/node_modules/'));
        const found = [...holders, ''].some((holder) => packages[`${holder ? `${holder}/` : ''}node_modules/${name}`]);
        if (!found) missing.push(`${name} (of ${path || 'the root'})`);
      }
    }
    expect(missing).toEqual([]);
  });
});
