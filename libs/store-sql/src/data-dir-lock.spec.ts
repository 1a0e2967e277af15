import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DATA_DIR_LOCK_FILE, DataDirInUseError, DataDirLock, takeOver } from './data-dir-lock';

const ROOT = resolve(__dirname, '../../..');
const LOCK_MODULE = join(__dirname, 'data-dir-lock.ts');

/**
 * Runs `node -e` on the TypeScript sources: it tries the lock on argv[1] (at the instant argv[2] if
 * given), prints `won` or `refused <pid>`, and a winner keeps holding until killed.
 */
const CONTENDER = `
const { DataDirLock, DataDirInUseError } = require(${JSON.stringify(LOCK_MODULE)});
const [dir, at] = process.argv.slice(1);
while (at && Date.now() < Number(at)); // start together
try {
  DataDirLock.acquire(dir);
  console.log('won');
  setInterval(() => undefined, 60_000);
} catch (error) {
  console.log(error instanceof DataDirInUseError ? 'refused ' + error.owner.pid : 'error ' + error.message);
}`;

const children: ChildProcess[] = [];
afterAll(() => children.forEach((child) => child.kill('SIGKILL')));

interface Contender {
  child: ChildProcess;
  /** The first line it prints. */
  verdict: Promise<string>;
  exited: Promise<void>;
}

function contend(dir: string, at?: number): Contender {
  const child = spawn(process.execPath, ['-r', './test/support/ts-register.js', '-e', CONTENDER, dir, ...(at ? [String(at)] : [])], { cwd: ROOT });
  children.push(child);
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  const verdict = new Promise<string>((resolveVerdict, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('\n')) resolveVerdict(output.split('\n')[0]);
    });
    child.once('exit', () => reject(new Error(`the contender exited without a verdict:\n${output}`)));
  });
  verdict.catch(() => undefined);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return { child, verdict, exited };
}

/** A pid no process has any more. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid;
}

function writeLock(dir: string, owner: Record<string, unknown>): string {
  const raw = JSON.stringify({ since: '2020-01-01T00:00:00.000Z', command: 'node main.js', nonce: 'earlier', ...owner });
  writeFileSync(join(dir, DATA_DIR_LOCK_FILE), raw);
  return raw;
}

const lockOwnerPid = (dir: string) => JSON.parse(readFileSync(join(dir, DATA_DIR_LOCK_FILE), 'utf8')).pid;

describe('DataDirLock', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates the directory, records this process in the lock file, and removes the file on release', () => {
    const dataDir = join(dir, 'not-yet');
    const lock = DataDirLock.acquire(dataDir);
    const recorded = JSON.parse(readFileSync(join(dataDir, DATA_DIR_LOCK_FILE), 'utf8'));
    expect(recorded).toMatchObject({ pid: process.pid, since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), command: expect.stringContaining('node') });
    lock.release();
    lock.release();
    expect(readdirSync(dataDir)).toEqual([]);
    DataDirLock.acquire(dataDir).release();
  });

  it('refuses a second hold in the same process, naming the directory, the pid and what to do', () => {
    const lock = DataDirLock.acquire(dir);
    try {
      let refusal: unknown;
      try {
        DataDirLock.acquire(dir);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(DataDirInUseError);
      expect((refusal as DataDirInUseError).message).toBe(
        `Invalid configuration: DATA_DIR ${dir} is in use by pid ${process.pid} (${lock.owner.command}, started ${lock.owner.since}). ` +
          'Stop that process first, or point DATA_DIR elsewhere.',
      );
      expect(lockOwnerPid(dir)).toBe(process.pid);
    } finally {
      lock.release();
    }
  });

  it('refuses while another live process holds it, and takes it over once that process is killed -9', async () => {
    const holder = contend(dir);
    expect(await holder.verdict).toBe('won');
    expect(() => DataDirLock.acquire(dir)).toThrow(`in use by pid ${holder.child.pid}`);
    holder.child.kill('SIGKILL');
    await holder.exited;
    const lock = DataDirLock.acquire(dir);
    expect(lockOwnerPid(dir)).toBe(process.pid);
    lock.release();
  });

  it.each([
    ['a dead pid', () => ({ pid: deadPid() })],
    ['this process’s own pid, left by an earlier process (a restarted container)', () => ({ pid: process.pid })],
    ['damaged content', () => ({ pid: 'not a pid' })],
  ])('takes over a lock naming %s', (_, owner) => {
    writeLock(dir, owner());
    const lock = DataDirLock.acquire(dir);
    expect(lockOwnerPid(dir)).toBe(process.pid);
    lock.release();
    expect(readdirSync(dir)).toEqual([]); // no claim or temporary file left behind
  });

  const hasProc = existsSync('/proc/self/stat');
  (hasProc ? it : it.skip)('takes over a lock whose live pid now belongs to a different process (pid reused)', () => {
    writeLock(dir, { pid: process.ppid, processStart: '1' });
    DataDirLock.acquire(dir).release();
  });

  it('takes over past a claimant that died in the middle of its own takeover', () => {
    const raw = writeLock(dir, { pid: deadPid() });
    const id = createHash('sha256').update(raw).digest('hex').slice(0, 24);
    writeFileSync(join(dir, `${DATA_DIR_LOCK_FILE}.takeover-${id}-1`), JSON.stringify({ pid: deadPid(), since: 'x', command: 'x', nonce: 'claimant' }));
    const lock = DataDirLock.acquire(dir);
    expect(lockOwnerPid(dir)).toBe(process.pid);
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('names the new owner, not a late claimant, when the lock changed hands during its takeover', () => {
    // This starter read a stale lock. Before it could claim it, another starter took the directory
    // over, and a third, which had read the same stale lock, made a claim and is still running.
    const staleRaw = JSON.stringify({ pid: deadPid(), since: 'x', command: 'x', nonce: 'stale' });
    const stale = { owner: JSON.parse(staleRaw), id: createHash('sha256').update(staleRaw).digest('hex').slice(0, 24) };
    writeLock(dir, { pid: process.ppid, nonce: 'new owner' });
    const claimant = spawn('sleep', ['30']);
    children.push(claimant);
    const claim = join(dir, `${DATA_DIR_LOCK_FILE}.takeover-${stale.id}-1`);
    writeFileSync(claim, JSON.stringify({ pid: claimant.pid, since: 'x', command: 'sleep 30', nonce: 'claimant' }));
    const candidate = join(dir, 'candidate.tmp');
    writeFileSync(candidate, JSON.stringify({ pid: process.pid, since: 'x', command: 'x', nonce: 'this starter' }));

    expect(takeOver(dir, join(dir, DATA_DIR_LOCK_FILE), candidate, stale)).toBe(false); // look again…
    expect(() => DataDirLock.acquire(dir)).toThrow(`in use by pid ${process.ppid}`); // …and meet the new owner
    expect(lockOwnerPid(dir)).toBe(process.ppid);
    expect(existsSync(claim)).toBe(false); // claims on a lock that is gone are spent
    claimant.kill('SIGKILL');
  });

  it('frees the directory when its process exits without releasing', async () => {
    const script = `require(${JSON.stringify(LOCK_MODULE)}).DataDirLock.acquire(process.argv[1]); process.exit(0);`;
    const result = spawnSync(process.execPath, ['-r', './test/support/ts-register.js', '-e', script, dir], { cwd: ROOT, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['a free directory', () => undefined],
    ['a directory whose owner died', () => void writeLock(dir, { pid: deadPid() })],
  ])(
    'lets exactly one of eight processes starting at the same instant hold %s',
    async (_, prepare) => {
      prepare();
      const at = Date.now() + 3000;
      const contenders = Array.from({ length: 8 }, () => contend(dir, at));
      const verdicts = await Promise.all(contenders.map((c) => c.verdict));
      const winners = contenders.filter((_, i) => verdicts[i] === 'won');
      expect(winners).toHaveLength(1);
      const winnerPid = winners[0].child.pid;
      expect(verdicts.filter((v) => v !== 'won')).toEqual(Array(7).fill(`refused ${winnerPid}`));
      expect(lockOwnerPid(dir)).toBe(winnerPid);
      expect(readdirSync(dir)).toEqual([DATA_DIR_LOCK_FILE]);
      winners[0].child.kill('SIGKILL');
      await Promise.all(contenders.map((c) => c.exited));
    },
    30_000,
  );
});
