export * from './sql-client';
export * from './data-dir-lock';
export * from './migrator';
export * from './store-sql.module';
export * from './sql-health.probe';
export * from './queue';
export * from './environments';
export * from './integrations';
