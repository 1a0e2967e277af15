import { loadConfig } from '@app/config';
import { MONGO_STORE, StoreMongoModule } from '@app/store-mongo';
import { SQL_CLIENT, StoreSqlModule } from '@app/store-sql';
import { storeModule } from './store-wiring';

const key = { STORE_ENCRYPTION_KEY: 'a'.repeat(64) };

describe('storeModule', () => {
  it('binds the MongoDB store for a mongodb:// or mongodb+srv:// DATABASE_URL', () => {
    for (const url of ['mongodb://db:27017/notify?replicaSet=rs0', 'mongodb+srv://cluster.example.com/notify']) {
      const module = storeModule({ config: loadConfig({ ...key, DATABASE_URL: url }, false), mongoDatabase: 'tests' });
      expect(module.module).toBe(StoreMongoModule);
      expect(module.exports).toContain(MONGO_STORE);
    }
  });

  it('binds the SQL store for postgres:// and for the embedded default', () => {
    const postgres = storeModule({ config: loadConfig({ ...key, DATABASE_URL: 'postgres://db/notify' }, false) });
    expect(postgres.module).toBe(StoreSqlModule);
    expect(postgres.exports).toContain(SQL_CLIENT);
  });
});
