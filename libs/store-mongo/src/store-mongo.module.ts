import { DynamicModule, Global, Inject, Module, OnApplicationShutdown, Provider } from '@nestjs/common';
import { ensureIndexes } from './mongo-indexes';
import { MONGO_STORE, MongoStore, MongoStoreOptions, openMongoStore } from './mongo-store';

export const mongoRepositoryProviders: Provider[] = [];

class MongoStoreCloser implements OnApplicationShutdown {
  constructor(@Inject(MONGO_STORE) private readonly store: MongoStore) {}
  async onApplicationShutdown() {
    await this.store.close();
  }
}

/** Binds every repository port, and the embedded queue's job store, to its MongoDB adapter, creating the indexes at start. */
@Global()
@Module({})
export class StoreMongoModule {
  static forRoot(options: MongoStoreOptions): DynamicModule {
    const store: Provider = {
      provide: MONGO_STORE,
      useFactory: async () => {
        const opened = await openMongoStore(options);
        try {
          await ensureIndexes(opened);
        } catch (error) {
          await opened.close();
          throw error;
        }
        return opened;
      },
    };
    return {
      module: StoreMongoModule,
      providers: [store, MongoStoreCloser, ...mongoRepositoryProviders],
      exports: [MONGO_STORE, ...mongoRepositoryProviders.map((p: any) => p.provide)],
    };
  }
}
