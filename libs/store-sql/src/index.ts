export * from './sql-client';
export * from './data-dir-lock';
export * from './migrator';
export * from './store-sql.module';
export * from './environments';
export * from './integrations';
