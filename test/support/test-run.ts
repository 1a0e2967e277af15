import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What the test files of one jest run share: the service build and a migrated PGlite data directory,
 * each made once, by whichever file asks first, in the run's directory (test/support/test-run.setup.js
 * creates it and names it in NOTIFY_TEST_RUN_DIR; test-run.teardown.js removes it).
 */
function runDir(): string {
  if (!process.env.NOTIFY_TEST_RUN_DIR) {
    // Outside jest (a script): this process's own directory, gone when it exits.
    const dir = mkdtempSync(join(tmpdir(), 'notify-test-run-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    process.env.NOTIFY_TEST_RUN_DIR = dir;
  }
  return process.env.NOTIFY_TEST_RUN_DIR;
}

/** How long a file waits for another worker to make what it asked for. */
const WAIT_MS = 10 * 60_000;

/**
 * The directory `<run dir>/<name>`, made by `make` the first time any worker of the run asks for it:
 * the first to create `<name>.lock` makes it, the others wait for `<name>.done`. A failure is
 * recorded in `<name>.failed`, so every file asking fails with it rather than waiting.
 */
export async function madeOnce(name: string, make: (dir: string) => Promise<void>): Promise<string> {
  const base = join(runDir(), name);
  const done = `${base}.done`;
  const failed = `${base}.failed`;
  let maker = true;
  try {
    mkdirSync(`${base}.lock`);
  } catch {
    maker = false;
  }
  if (maker) {
    try {
      mkdirSync(base);
      await make(base);
      writeFileSync(done, '');
    } catch (error) {
      writeFileSync(failed, (error as Error)?.stack ?? String(error));
      throw error;
    }
    return base;
  }
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    if (existsSync(done)) return base;
    if (existsSync(failed)) throw new Error(`making ${name} failed in another test file:\n${readFileSync(failed, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${name} was not made within ${WAIT_MS / 60_000} minutes (${base})`);
}

/** A new empty directory in the run's directory (removed with it). */
export function scratchDir(prefix: string): string {
  return mkdtempSync(join(runDir(), `${prefix}-`));
}

/** `<run dir>/<name>`: a path every file of the run shares (made by whoever writes there first). */
export function runPath(name: string): string {
  return join(runDir(), name);
}
