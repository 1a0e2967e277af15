export * from './sql-client';
export * from './migrator';
export * from './store-sql.module';
export * from './environments';
export * from './integrations';
