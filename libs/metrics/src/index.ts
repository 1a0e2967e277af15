export * from './prom-metrics';
export * from './metrics-access';
export * from './metrics-server';
export * from './metrics.module';
