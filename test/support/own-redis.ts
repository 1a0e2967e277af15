import { ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { sleep } from './service-processes';

/** A redis-server of a test's own (no persistence) on `port`, for tests that restart or freeze it; resolves once it accepts connections. */
export function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    const poll = async (attempt: number): Promise<void> => {
      const ok = await new Promise<boolean>((done) => {
        const socket = connect(port, '127.0.0.1', () => (socket.end(), done(true)));
        socket.once('error', () => done(false));
      });
      if (ok) return resolve(child);
      if (attempt > 100) return reject(new Error('redis-server did not start'));
      await sleep(50);
      return poll(attempt + 1);
    };
    void poll(0);
  });
}

/** SIGKILL (a stopped one too), and waits for the exit. */
export async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
