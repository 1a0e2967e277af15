import Redis, { RedisOptions } from 'ioredis';

type BullClientType = 'client' | 'subscriber' | 'bclient';

/**
 * Bull's Redis connections with a command timeout on the one that adds and reads jobs (`client`): an
 * add or a count then waits for a stalled Redis that long at most. The blocking consumer (`bclient`,
 * whose BRPOPLPUSH waits by design) and the event subscriber are made as Bull makes them. Bull closes
 * only the connections it made itself, so close() ends these once the queues are closed.
 */
export class TimedBullClients {
  private readonly made: Redis[] = [];

  constructor(private readonly commandTimeoutMs: number) {}

  readonly create = (type: BullClientType, options: RedisOptions = {}): Redis => {
    const client = type === 'client' ? new Redis({ ...options, commandTimeout: this.commandTimeoutMs }) : new Redis({ ...options, maxRetriesPerRequest: null });
    this.made.push(client);
    return client;
  };

  close(): void {
    for (const client of this.made.splice(0)) client.disconnect();
  }
}
