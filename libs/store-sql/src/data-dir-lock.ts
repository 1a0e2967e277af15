import { createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from '@app/config';

/** The file in DATA_DIR naming the one process that has the embedded store open. */
export const DATA_DIR_LOCK_FILE = 'data-dir.lock';

/** What a lock file records about its owner. */
export interface DataDirLockOwner {
  pid: number;
  /** When the owner took the lock (ISO 8601). */
  since: string;
  /** How the owner was started, e.g. `node dist/apps/api/src/main.js`. */
  command: string;
  /** Linux: the owner's start time in clock ticks since boot, which tells a reused pid apart. */
  processStart?: string;
  /** Makes every lock file's content unique. */
  nonce: string;
}

/** DATA_DIR is held by another live process (or by this one, through another store). */
export class DataDirInUseError extends ConfigError {
  readonly code = 'DATA_DIR_IN_USE';
  constructor(
    readonly dataDir: string,
    readonly owner: DataDirLockOwner,
  ) {
    super(
      'DATA_DIR',
      `${dataDir} is in use by pid ${owner.pid} (${owner.command}, started ${owner.since}). Stop that process first, or point DATA_DIR elsewhere.`,
    );
  }
}

/** A lock file as read: its owner and the hash that names its takeover claims. */
export interface LockFile {
  owner: DataDirLockOwner;
  /** Hash of the file's bytes: names the takeover claims of exactly this lock. */
  id: string;
}

/** The locks this process holds, by nonce (a lock naming our pid is alive only if it is one of these). */
const heldHere = new Map<string, DataDirLock>();
let releaseOnExit = false;

/**
 * An exclusive, crash-tolerant hold on a data directory, so that one process at a time opens its
 * PGlite store (two processes on one directory lose each other's writes).
 *
 * The lock file is written complete under a private name and hard-linked into place, which fails
 * if the file exists, so exactly one of several starters gets a free directory. A lock whose owner
 * is dead (kill -9, a crash, a reused pid) is taken over: a starter first wins the claim file named
 * after that exact lock's content (again by hard link, so one winner), checks that the lock has not
 * changed, then renames its own file over it. A claimant that dies mid-takeover is followed by a
 * claim with the next number.
 */
export class DataDirLock {
  private constructor(
    readonly path: string,
    readonly owner: DataDirLockOwner,
  ) {
    heldHere.set(owner.nonce, this);
    if (!releaseOnExit) {
      // A process that exits without closing its store (process.exit) still frees its directories.
      process.on('exit', () => heldHere.forEach((lock) => lock.release()));
      releaseOnExit = true;
    }
  }

  /** Takes the lock on `dataDir` (created if missing), or throws DataDirInUseError naming the owner. */
  static acquire(dataDir: string): DataDirLock {
    mkdirSync(dataDir, { recursive: true });
    const path = join(dataDir, DATA_DIR_LOCK_FILE);
    const owner = describeThisProcess();
    const candidate = `${path}.${process.pid}.${owner.nonce}.tmp`;
    writeFileSync(candidate, JSON.stringify(owner), { flag: 'wx' });
    try {
      // Each pass ends in a hold, a refusal, or a lock that changed hands meanwhile (then look again).
      for (let pass = 0; pass < 50; pass++) {
        if (link(candidate, path)) return new DataDirLock(path, owner);
        const current = readLock(path);
        if (!current) continue; // released between our attempt and the read
        if (isAlive(current.owner)) throw new DataDirInUseError(dataDir, current.owner);
        if (takeOver(dataDir, path, candidate, current)) return new DataDirLock(path, owner);
      }
      throw new Error(`Could not lock ${dataDir}: its lock file kept changing hands`);
    } finally {
      removeQuietly(candidate);
    }
  }

  /** Frees the directory; a second call does nothing. */
  release(): void {
    if (!heldHere.delete(this.owner.nonce)) return;
    // Nobody takes over a live owner's lock, so the file is still ours unless someone deleted it by hand.
    if (readLock(this.path)?.owner.nonce === this.owner.nonce) removeQuietly(this.path);
  }
}

/**
 * Replaces the `stale` lock at `path` with `candidate`'s content; false when the lock changed hands
 * or was released meanwhile (the caller looks again). Exported for its spec, which sets up the
 * interleavings of several starters that acquire alone meets only by chance.
 */
export function takeOver(dataDir: string, path: string, candidate: string, stale: LockFile): boolean {
  const prefix = `${basename(path)}.takeover-${stale.id}-`;
  try {
    for (let attempt = 1; ; attempt++) {
      const claim = join(dirname(path), `${prefix}${attempt}`);
      if (link(candidate, claim)) {
        if (readLock(path)?.id !== stale.id) return false; // taken over or released meanwhile
        renameSync(candidate, path);
        return true;
      }
      const claimant = readLock(claim);
      // A claim made after the lock changed hands (its claimant read the stale lock late): the
      // caller reads the lock again and names its real owner, not that claimant.
      if (readLock(path)?.id !== stale.id) return false;
      if (claimant && isAlive(claimant.owner)) throw new DataDirInUseError(dataDir, claimant.owner);
    }
  } finally {
    // Claims on a lock that is no longer there are spent; one left over is harmless (checked above).
    if (readLock(path)?.id !== stale.id) {
      for (const name of readdirSync(dirname(path))) if (name.startsWith(prefix)) removeQuietly(join(dirname(path), name));
    }
  }
}

/** Creates `to` as a hard link of `from`; false when `to` exists. */
function link(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error: any) {
    if (error.code === 'EEXIST') return false;
    throw error;
  }
}

function readLock(path: string): LockFile | undefined {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error: any) {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  }
  const id = createHash('sha256').update(raw).digest('hex').slice(0, 24);
  try {
    const owner = JSON.parse(raw) as DataDirLockOwner;
    if (Number.isSafeInteger(owner.pid) && owner.pid > 0 && typeof owner.nonce === 'string') return { owner, id };
  } catch {
    // not ours or damaged: nobody can be proven to own it, so it is stale
  }
  return { owner: { pid: 0, since: '?', command: '?', nonce: '' }, id };
}

function isAlive(owner: DataDirLockOwner): boolean {
  if (owner.pid <= 0) return false;
  // Our own pid in a lock we do not hold: left by an earlier process with the same pid (a container restarted).
  if (owner.pid === process.pid) return heldHere.has(owner.nonce);
  try {
    process.kill(owner.pid, 0);
  } catch (error: any) {
    if (error.code === 'ESRCH') return false;
    // EPERM: it exists, under another user
  }
  const start = processStartOf(owner.pid);
  return !(owner.processStart && start && start !== owner.processStart);
}

/** Field 22 of /proc/<pid>/stat (Linux); undefined where there is no /proc. */
function processStartOf(pid: number | 'self'): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses; the fields after it start at 3.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function describeThisProcess(): DataDirLockOwner {
  const command = [basename(process.argv0), ...process.argv.slice(1)].join(' ');
  return {
    pid: process.pid,
    since: new Date().toISOString(),
    command: command.length > 200 ? `${command.slice(0, 199)}…` : command,
    processStart: processStartOf('self'),
    nonce: randomBytes(12).toString('hex'),
  };
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error: any) {
    if (error.code !== 'ENOENT') throw error;
  }
}
