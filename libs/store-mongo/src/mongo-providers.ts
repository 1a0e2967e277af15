import { InjectionToken, Provider } from '@nestjs/common';
import { guardedRepository } from './mongo-errors';
import { MONGO_STORE, MongoStore } from './mongo-store';

/**
 * A repository port bound to its MongoDB adapter, guarded (guardedRepository): `create` gets the
 * store and whatever else `inject` names.
 */
export function mongoProvider<T extends object>(
  token: InjectionToken,
  name: string,
  create: (store: MongoStore, ...dependencies: any[]) => T,
  inject: InjectionToken[] = [],
): Provider {
  return {
    provide: token,
    inject: [MONGO_STORE, ...inject],
    useFactory: (store: MongoStore, ...dependencies: unknown[]) => guardedRepository(name, create(store, ...dependencies)),
  };
}
