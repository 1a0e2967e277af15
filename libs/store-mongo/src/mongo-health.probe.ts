import { HealthProbe } from '@app/kernel';
import { MongoStore } from './mongo-store';

/** The store answers a ping. */
export class MongoHealthProbe implements HealthProbe {
  readonly name = 'store';

  constructor(private readonly store: MongoStore) {}

  ping(): Promise<void> {
    return this.store.ping();
  }
}
