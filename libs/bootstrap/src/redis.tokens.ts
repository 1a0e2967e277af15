/** The shared ioredis connection, present only when REDIS_URL is set. */
export const REDIS_CONNECTION = Symbol('RedisConnection');
