export * from './socket-io-hub';
export * from './redis-emitter.inbox-socket';
