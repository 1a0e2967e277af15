import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort, sleep } from './service-processes';

/**
 * A PostgreSQL server of a test's own, to crash and restart without touching the shared one: initdb
 * (as the `postgres` user, which PostgreSQL requires when the tests run as root) into a temporary
 * directory, then the postmaster on a free port as a child process, so the test can SIGKILL it
 * (a crash) or SIGINT it (`pg_ctl stop -m fast`). fsync is off (the data only has to survive a
 * process's death, not the machine's), and commits stay synchronous, so an acknowledged write survives.
 */
export class PrivatePostgres {
  private child?: ChildProcess;
  private output = '';

  private constructor(
    readonly port: number,
    private readonly dataDir: string,
    private readonly bin: string,
    private readonly user: { uid: number; gid: number },
  ) {}

  static async create(): Promise<PrivatePostgres> {
    const bin = execFileSync('pg_config', ['--bindir']).toString().trim();
    const user = { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) };
    const dataDir = mkdtempSync(join(tmpdir(), 'notify-pg-'));
    chownSync(dataDir, user.uid, user.gid);
    execFileSync(join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '--no-instructions', '-E', 'UTF8'], {
      ...user,
      stdio: 'pipe',
    });
    return new PrivatePostgres(await freePort(), dataDir, bin, user);
  }

  /** An admin URL (the `postgres` database). */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /**
   * Starts the postmaster and waits until it accepts connections. Right after a crash the old
   * server's backends may still hold its shared memory for a moment: the start is then tried again.
   */
  async start(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const child = spawn(
        join(this.bin, 'postgres'),
        ['-D', this.dataDir, '-p', String(this.port), '-k', this.dataDir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=100'],
        { ...this.user, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      this.child = child;
      child.stdout.on('data', (chunk: Buffer) => this.keep(chunk));
      child.stderr.on('data', (chunk: Buffer) => this.keep(chunk));
      while (child.exitCode === null && child.signalCode === null) {
        if (await this.accepts()) return;
        if (Date.now() > deadline) throw new Error(`PostgreSQL did not start within ${timeoutMs} ms:\n${this.output.slice(-3000)}`);
        await sleep(100);
      }
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not start within ${timeoutMs} ms:\n${this.output.slice(-3000)}`);
      await sleep(200);
    }
  }

  /** SIGKILL to the postmaster: a crash. Its backends notice and end by themselves. */
  async crash(): Promise<void> {
    await this.signal('SIGKILL');
  }

  /** SIGINT to the postmaster: a fast shutdown (what `pg_ctl restart -m fast` does first). */
  async stopFast(): Promise<void> {
    await this.signal('SIGINT');
  }

  /** Stops the server if it runs and deletes its data directory. Never throws. */
  async destroy(): Promise<void> {
    await this.signal('SIGKILL').catch(() => undefined);
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  logs(): string {
    return this.output.slice(-4000);
  }

  private keep(chunk: Buffer): void {
    this.output += chunk.toString();
    if (this.output.length > 100_000) this.output = this.output.slice(-50_000);
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }

  private async accepts(): Promise<boolean> {
    const client = new Client({ connectionString: this.url, connectionTimeoutMillis: 1_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
