import { DynamicModule } from '@nestjs/common';
import { IDEMPOTENCY_STORE } from '@app/kernel';
import { SQL_CLIENT, SqlClient, SqlHealthProbe, SqlIdempotencyStore, StoreSqlModule } from '@app/store-sql';
import { ServiceOptions, StoreWiring, sqlPoolSize } from './service-options';

/** The store DATABASE_URL (or DATA_DIR) names: PostgreSQL or PGlite through the SQL adapters, or MongoDB. */
export function storeWiring(options: ServiceOptions): StoreWiring {
  const { store } = options.config;
  if (store.kind === 'mongodb') {
    // mongoose and the MongoDB driver are some 400 modules: only a process on MongoDB loads them.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { mongoStoreWiring } = require('./mongo-store.wiring') as typeof import('./mongo-store.wiring');
    return mongoStoreWiring(options);
  }
  return {
    module:
      store.kind === 'postgres'
        ? StoreSqlModule.forRoot({ url: store.url, schema: options.sqlSchema, poolSize: sqlPoolSize(options.config) })
        : StoreSqlModule.forRoot({ dataDir: store.dataDir }),
    client: SQL_CLIENT,
    healthProbe: (client) => new SqlHealthProbe(client as SqlClient),
    idempotencyStore: { provide: IDEMPOTENCY_STORE, useClass: SqlIdempotencyStore },
  };
}

/** The store's module (its client and every repository), for the process's imports. */
export function storeModule(options: ServiceOptions): DynamicModule {
  return storeWiring(options).module;
}
