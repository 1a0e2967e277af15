import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './deploy-files';

const run = promisify(execFile);

export interface NpmResult {
  ok: boolean;
  output: string;
  ms: number;
}

/**
 * Runs npm as someone at a shell would: configured by its npmrc files, not by the `npm_*` variables
 * of an npm that started this test (`npm test` exports its own version, prefix and lifecycle).
 * `command` is `npm …`, or `npx -y npm@10 …` for another npm.
 */
export async function runNpm(command: string[], cwd: string, timeoutMs = 300_000): Promise<NpmResult> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'INIT_CWD'));
  const started = Date.now();
  try {
    const { stdout, stderr } = await run(command[0], command.slice(1), { cwd, env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    return { ok: true, output: `${stdout}${stderr}`, ms: Date.now() - started };
  } catch (error: any) {
    return { ok: false, output: `${error.stdout ?? ''}${error.stderr ?? ''}${error.message}`, ms: Date.now() - started };
  }
}

/** A fresh directory holding the repository's package.json and package-lock.json only. */
export function packageCopy(prefix = 'notify-package-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(ROOT, file), join(dir, file));
  return dir;
}
