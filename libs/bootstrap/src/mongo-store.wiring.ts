import { IDEMPOTENCY_STORE } from '@app/kernel';
import { MONGO_STORE, MongoHealthProbe, MongoStore, mongoIdempotencyStore, StoreMongoModule } from '@app/store-mongo';
import { ServiceOptions, StoreWiring, sqlPoolSize } from './service-options';

/** @public loaded with require() by storeWiring, only on MongoDB */
export function mongoStoreWiring(options: ServiceOptions): StoreWiring {
  const { config } = options;
  return {
    module: StoreMongoModule.forRoot({ url: config.store.url!, dbName: options.mongoDatabase, poolSize: sqlPoolSize(config) }),
    client: MONGO_STORE,
    healthProbe: (client) => new MongoHealthProbe(client as MongoStore),
    idempotencyStore: { provide: IDEMPOTENCY_STORE, inject: [MONGO_STORE], useFactory: mongoIdempotencyStore },
  };
}
