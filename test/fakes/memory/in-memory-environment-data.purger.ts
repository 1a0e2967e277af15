import { EnvironmentDataPurger } from '@app/environments';
import { EnvironmentRecords } from './memory-records';

/** EnvironmentDataPurger in memory: asks every fake that holds records of environments to drop the environment's. */
export class InMemoryEnvironmentDataPurger implements EnvironmentDataPurger {
  constructor(private readonly holders: EnvironmentRecords[]) {}

  async purge(environmentId: string): Promise<number> {
    return this.holders.reduce((sum, holder) => sum + holder.purgeEnvironment(environmentId), 0);
  }
}
