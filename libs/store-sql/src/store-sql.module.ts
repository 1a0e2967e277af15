import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { SQL_CLIENT, SqlClient, SqlClientOptions, createSqlClient } from './sql-client';
import { migrate } from './migrator';
import { sqlEnvironmentProviders } from './environments';
import { sqlSubscribersProviders } from './subscribers';
import { sqlTopicsProviders } from './topics';
import { sqlTenantsProviders } from './tenants';
import { sqlContextsProviders } from './contexts';
import { sqlIntegrationsProviders } from './integrations';
import { sqlWorkflowsProviders } from './workflows';
import { sqlDeliveryProviders } from './delivery';
import { sqlQueueProviders } from './queue';
import { sqlWebhooksProviders } from './webhooks';
import { sqlInboxProviders } from './inbox';
import { sqlTranslationsProviders } from './translations';

export const sqlRepositoryProviders = [
  ...sqlEnvironmentProviders,
  ...sqlSubscribersProviders,
  ...sqlTopicsProviders,
  ...sqlTenantsProviders,
  ...sqlContextsProviders,
  ...sqlIntegrationsProviders,
  ...sqlWorkflowsProviders,
  ...sqlDeliveryProviders,
  ...sqlQueueProviders,
  ...sqlWebhooksProviders,
  ...sqlInboxProviders,
  ...sqlTranslationsProviders,
];

class SqlClientCloser implements OnApplicationShutdown {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}
  async onApplicationShutdown() {
    await this.sql.close();
  }
}

/** Binds every repository port, and the embedded queue's job store, to its SQL adapter (PostgreSQL or PGlite), migrating at start. */
@Global()
@Module({})
export class StoreSqlModule {
  static forRoot(options: SqlClientOptions): DynamicModule {
    const client = {
      provide: SQL_CLIENT,
      useFactory: async () => {
        const sql = await createSqlClient(options);
        try {
          await migrate(sql);
        } catch (error) {
          await sql.close(); // frees an embedded DATA_DIR for the next start
          throw error;
        }
        return sql;
      },
    };
    return {
      module: StoreSqlModule,
      providers: [client, SqlClientCloser, ...sqlRepositoryProviders],
      exports: [SQL_CLIENT, ...sqlRepositoryProviders.map((p: any) => p.provide)],
    };
  }
}
