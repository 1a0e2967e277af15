export * from './prom-metrics';
export * from './metrics-server';
export * from './metrics.module';
