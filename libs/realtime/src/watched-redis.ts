import Redis, { RedisOptions, ReplyError } from 'ioredis';
import { OutageLog } from '@app/kernel';

/**
 * A Redis connection of the realtime adapters. socket.io's Redis adapter and emitter publish without
 * handling a failure, and a rejection nothing handles ends the process: here every command's outcome
 * goes to `outage` (which handles the failure, and logs one line as Redis fails and one as it answers
 * again), and so does every connection error. An error reply is an answer: Redis is there.
 */
export class WatchedRedis extends Redis {
  constructor(
    url: string,
    options: RedisOptions,
    private readonly outage: OutageLog,
  ) {
    super(url, options);
    this.on('error', (error: Error) => outage.failed(error));
    this.on('ready', () => outage.succeeded());
  }

  /** Drops the connection at once (a quit would wait for a Redis that is not there); what is pending fails unlogged. */
  close(): void {
    this.outage.end();
    this.disconnect();
  }

  override sendCommand(...[command, stream]: Parameters<Redis['sendCommand']>): unknown {
    this.outage.watch(
      command.promise.catch((error: unknown) => {
        if (!(error instanceof ReplyError)) throw error;
      }),
    );
    return super.sendCommand(command, stream);
  }
}
