import { hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type StoreKind = 'pglite' | 'postgres' | 'mongodb';

export interface AppConfig {
  port: number;
  host: string;
  store: { kind: StoreKind; url?: string; dataDir: string };
  redisUrl?: string;
  /**
   * How long a Redis command on the request path may wait for its answer (REDIS_COMMAND_TIMEOUT_MS):
   * a stalled Redis then costs a request this long at most, never until Redis comes back.
   */
  redisCommandTimeoutMs: number;
  bootstrapApiKey?: string;
  /** 32 bytes used for AES-256-GCM of integration credentials at rest. */
  encryptionKey: Buffer;
  allowPrivateNetworkTargets: boolean;
  logLevel: string;
  /** Largest accepted JSON body, in bytes. */
  bodyLimitBytes: number;
  /** Step jobs one process runs at once. */
  workerConcurrency: number;
  /**
   * Fan-out jobs one process runs at once (FANOUT_CONCURRENCY; by default 40, or WORKER_CONCURRENCY when
   * that is lower). A fan-out job carries up to 100 triggers, so this bounds the deliveries in flight.
   */
  fanOutConcurrency: number;
  /**
   * An integration's circuit opens after this many vendor failures in a row (5xx, timeouts; not 429s
   * nor permanent errors: VENDOR_CIRCUIT_FAILURES, default 5) and stays open this long before one probe call
   * (VENDOR_CIRCUIT_OPEN_SECONDS, default 30).
   */
  vendorCircuit: { failures: number; openMs: number };
  /** Accepted triggers and step jobs that have not moved for this long are checked against the queue and re-enqueued if it lost them. */
  recoveryAfterMs: number;
  /** Bull key prefix, also prefixing the Redis idempotency keys: deployments sharing a Redis keep apart by it. */
  queuePrefix: string;
  /**
   * How soon a job held by a crashed process runs again (QUEUE_LOCK_SECONDS, QUEUE_STALLED_CHECK_SECONDS):
   * a running job's lock (Bull) or lease (embedded queue) lasts `lockMs` and is renewed while the job
   * runs; expired ones are looked for every `stalledCheckMs` (unset: each queue's default, from the lock).
   */
  queueLock: { lockMs: number; stalledCheckMs?: number };
  /** `pretty`: human-readable lines (a terminal); `json`: one JSON object per line (piped, production). */
  logFormat: 'pretty' | 'json';
  /**
   * Requests of one environment an api process runs at once (0: no limit), and how many more of
   * them may wait for a slot: one environment's load then cannot queue another's requests behind it.
   */
  admission: { maxInFlightPerEnvironment: number; maxQueuedPerEnvironment: number };
  /** Triggers one environment may send per window, across every api process; limit 0 turns it off. */
  triggerRateLimit: { limit: number; windowMs: number };
  /** Delivery records (triggers, notifications, jobs, messages, execution details) older than this many days are deleted; 0 keeps them. */
  retentionDays: number;
  /** A worker touches this file every few seconds while it is alive and consuming (a liveness signal for containers). */
  workerHeartbeatFile?: string;
  /** A hard bounce or spam report reported by a vendor's event webhook suppresses the address in its environment (SUPPRESS_BOUNCED_ADDRESSES). */
  suppressBouncedAddresses: boolean;
  /** The API's public base URL as vendors call it (API_PUBLIC_URL): Twilio signs the full URL. Unset: taken from the request's Host and X-Forwarded-Proto. */
  apiPublicUrl?: string;
  /** Largest inbound vendor webhook body, in bytes (INBOUND_WEBHOOK_BODY_LIMIT_BYTES). */
  inboundWebhookBodyLimitBytes: number;
  /** Signs Inbox subscriber tokens (HS256): INBOX_TOKEN_SECRET, else derived from the encryption key, so every process of a deployment agrees. */
  inboxTokenSecret: Buffer;
  /** How long an Inbox subscriber token lasts. */
  inboxTokenTtlSeconds: number;
  /** GET /metrics (Prometheus) is served on this port, and an api process no longer serves it on `port`; unset: a worker serves none. */
  metricsPort?: number;
  /** GET /metrics answers only a request sending `Authorization: Bearer <token>` (METRICS_TOKEN). */
  metricsToken?: string;
  /** Outbound webhooks: the waits before each retry of a failed attempt (after the first); their count is the retries. */
  webhookRetryDelaysMs: number[];
  /** Outbound webhooks: how long one attempt may take. */
  webhookTimeoutMs: number;
  /** Reply callbacks: the domain of the Reply-To addresses (unset: no reply address is set). */
  inboundMailDomain?: string;
  /** Reply callbacks: the worker's SMTP receiver listens here (unset: no receiver). */
  inboundMailPort?: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
  }
}

type Env = Record<string, string | undefined>;

const BOOLEAN_VALUES: Record<string, boolean> = { true: true, '1': true, yes: true, false: false, '0': false, no: false };

function parseBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = BOOLEAN_VALUES[raw.toLowerCase()];
  if (value === undefined) throw new ConfigError(name, `must be true or false, got "${raw}"`);
  return value;
}

function parseInteger(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function parseUrl(env: Env, name: string, schemes: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `is not a valid URL`);
  }
  const scheme = url.protocol.replace(/:$/, '');
  if (!schemes.includes(scheme)) throw new ConfigError(name, `must use one of ${schemes.map((s) => s + '://').join(', ')}, got "${scheme}://"`);
  return raw;
}

/**
 * About a thousand triggers in flight (jobs of ~25 on a backlog): a delivery then lives for about one
 * young-generation cycle of the worker's heap, so its objects die young instead of being copied and
 * promoted, while the statements it shares stay hundreds of rows long (docs/performance-log.md).
 */
const DEFAULT_FANOUT_CONCURRENCY = 40;
const DEFAULT_WEBHOOK_RETRY_DELAYS = '5s,30s,2m,10m,30m,2h,5h,10h';
const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** A comma-separated list of durations such as `5s,30s,2m,10h` (ms, s, m, h). */
function parseDurations(env: Env, name: string, fallback: string): number[] {
  const raw = env[name] || fallback;
  const parts = raw.split(',').map((part) => part.trim());
  return parts.map((part) => {
    const match = /^(\d+)(ms|s|m|h)$/.exec(part);
    if (!match) throw new ConfigError(name, `must be a comma-separated list of durations such as 5s,30s,2m,10h (units ms, s, m, h), got "${raw}"`);
    const value = Number(match[1]) * DURATION_UNITS_MS[match[2]];
    if (value > 7 * 24 * 3_600_000) throw new ConfigError(name, `may hold waits of at most 7 days, got "${part}"`);
    return value;
  });
}

function decodeKey(raw: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return Buffer.from(raw, 'hex');
  const b64 = Buffer.from(raw, 'base64');
  return b64.length === 32 ? b64 : undefined;
}

function resolveEncryptionKey(env: Env, store: AppConfig['store']): Buffer {
  const raw = env.STORE_ENCRYPTION_KEY;
  if (raw) {
    const key = decodeKey(raw);
    if (!key) throw new ConfigError('STORE_ENCRYPTION_KEY', 'must be 32 bytes as 64 hex characters or base64');
    return key;
  }
  if (store.kind !== 'pglite') {
    throw new ConfigError('STORE_ENCRYPTION_KEY', 'is required when DATABASE_URL is set (32 bytes, hex or base64)');
  }
  // Embedded mode keeps its generated key beside the data, so a restart can still decrypt.
  mkdirSync(store.dataDir, { recursive: true });
  const file = join(store.dataDir, 'encryption.key');
  if (existsSync(file)) {
    const key = decodeKey(readFileSync(file, 'utf8').trim());
    if (!key) throw new ConfigError('STORE_ENCRYPTION_KEY', `file ${file} is corrupt`);
    return key;
  }
  const key = randomBytes(32);
  try {
    // `wx`: two first starts at once must not each write a key; the loser reads the winner's.
    writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return resolveEncryptionKey(env, store);
  }
  return key;
}

function resolveInboxTokenSecret(env: Env, encryptionKey: Buffer): Buffer {
  const raw = env.INBOX_TOKEN_SECRET;
  if (raw) {
    if (raw.length < 32) throw new ConfigError('INBOX_TOKEN_SECRET', 'must be at least 32 characters');
    return Buffer.from(raw, 'utf8');
  }
  // A key of its own (HKDF), never the encryption key itself.
  return Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), 'inbox-subscriber-token', 32));
}

export function loadConfig(env: Env = process.env, terminal: boolean = process.stdout.isTTY === true): AppConfig {
  const port = parseInteger(env, 'PORT', 3000, 0, 65535);
  const databaseUrl = parseUrl(env, 'DATABASE_URL', ['postgres', 'postgresql', 'mongodb', 'mongodb+srv']);
  const dataDir = resolve(env.DATA_DIR || './.data');
  const kind: StoreKind = !databaseUrl ? 'pglite' : databaseUrl.startsWith('mongodb') ? 'mongodb' : 'postgres';
  const store = { kind, url: databaseUrl, dataDir };
  const redisUrl = parseUrl(env, 'REDIS_URL', ['redis', 'rediss']);
  const bootstrapApiKey = env.BOOTSTRAP_API_KEY || undefined;
  if (bootstrapApiKey !== undefined && !/^[\w.~-]{16,128}$/.test(bootstrapApiKey)) {
    throw new ConfigError('BOOTSTRAP_API_KEY', 'must be 16 to 128 characters of letters, digits, "_", "-", "." or "~"');
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of fatal, error, warn, info, debug, trace, silent, got "${logLevel}"`);
  }
  const queuePrefix = env.QUEUE_PREFIX || 'bull';
  if (!/^[\w.:-]{1,100}$/.test(queuePrefix)) {
    throw new ConfigError('QUEUE_PREFIX', 'must be 1 to 100 characters of letters, digits, "_", "-", "." or ":"');
  }
  const logFormat = env.LOG_FORMAT || (terminal && env.NODE_ENV !== 'production' ? 'pretty' : 'json');
  if (logFormat !== 'pretty' && logFormat !== 'json') throw new ConfigError('LOG_FORMAT', `must be pretty or json, got "${logFormat}"`);
  const encryptionKey = resolveEncryptionKey(env, store);
  const workerConcurrency = parseInteger(env, 'WORKER_CONCURRENCY', 100, 1, 1000);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    store,
    redisUrl,
    redisCommandTimeoutMs: parseInteger(env, 'REDIS_COMMAND_TIMEOUT_MS', 2_000, 100, 60_000),
    bootstrapApiKey,
    encryptionKey,
    inboxTokenSecret: resolveInboxTokenSecret(env, encryptionKey),
    inboxTokenTtlSeconds: parseInteger(env, 'INBOX_TOKEN_TTL_SECONDS', 7 * 86_400, 60, 366 * 86_400),
    allowPrivateNetworkTargets: parseBoolean(env, 'ALLOW_PRIVATE_NETWORK_TARGETS', false),
    logLevel,
    bodyLimitBytes: parseInteger(env, 'BODY_LIMIT_BYTES', 600 * 1024, 1024, 64 * 1024 * 1024),
    workerConcurrency,
    fanOutConcurrency: parseInteger(env, 'FANOUT_CONCURRENCY', Math.min(DEFAULT_FANOUT_CONCURRENCY, workerConcurrency), 1, 1000),
    recoveryAfterMs: parseInteger(env, 'RECOVERY_AFTER_SECONDS', 60, 1, 86_400) * 1000,
    vendorCircuit: {
      failures: parseInteger(env, 'VENDOR_CIRCUIT_FAILURES', 5, 1, 1000),
      openMs: parseInteger(env, 'VENDOR_CIRCUIT_OPEN_SECONDS', 30, 1, 3600) * 1000,
    },
    queuePrefix,
    queueLock: {
      lockMs: parseInteger(env, 'QUEUE_LOCK_SECONDS', 30, 1, 3600) * 1000,
      stalledCheckMs: env.QUEUE_STALLED_CHECK_SECONDS ? parseInteger(env, 'QUEUE_STALLED_CHECK_SECONDS', 0, 1, 3600) * 1000 : undefined,
    },
    logFormat,
    admission: {
      maxInFlightPerEnvironment: parseInteger(env, 'API_MAX_IN_FLIGHT_PER_ENVIRONMENT', 16, 0, 100_000),
      maxQueuedPerEnvironment: parseInteger(env, 'API_MAX_QUEUED_PER_ENVIRONMENT', 1000, 1, 1_000_000),
    },
    triggerRateLimit: {
      limit: parseInteger(env, 'TRIGGER_RATE_LIMIT', 60_000, 0, 100_000_000),
      windowMs: parseInteger(env, 'TRIGGER_RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400) * 1000,
    },
    retentionDays: parseInteger(env, 'RETENTION_DAYS', 30, 0, 36_500),
    workerHeartbeatFile: env.WORKER_HEARTBEAT_FILE || undefined,
    suppressBouncedAddresses: parseBoolean(env, 'SUPPRESS_BOUNCED_ADDRESSES', true),
    apiPublicUrl: parseUrl(env, 'API_PUBLIC_URL', ['http', 'https'])?.replace(/\/+$/, ''),
    inboundWebhookBodyLimitBytes: parseInteger(env, 'INBOUND_WEBHOOK_BODY_LIMIT_BYTES', 1024 * 1024, 1024, 16 * 1024 * 1024),
    metricsPort: env.METRICS_PORT ? parseInteger(env, 'METRICS_PORT', 0, 0, 65535) : undefined,
    metricsToken: parseMetricsToken(env),
    webhookRetryDelaysMs: parseDurations(env, 'WEBHOOK_RETRY_DELAYS', DEFAULT_WEBHOOK_RETRY_DELAYS),
    webhookTimeoutMs: parseInteger(env, 'WEBHOOK_TIMEOUT_SECONDS', 15, 1, 300) * 1000,
    inboundMailDomain: parseDomain(env, 'INBOUND_MAIL_DOMAIN'),
    inboundMailPort: env.INBOUND_MAIL_PORT ? parseInteger(env, 'INBOUND_MAIL_PORT', 0, 0, 65535) : undefined,
  };
}

/** A bearer token (RFC 6750's characters), long enough not to be guessed. */
function parseMetricsToken(env: Env): string | undefined {
  const raw = env.METRICS_TOKEN;
  if (raw === undefined || raw === '') return undefined;
  if (!/^[\w.~+/-]{16,256}=*$/.test(raw))
    throw new ConfigError('METRICS_TOKEN', 'must be 16 to 256 characters of letters, digits, "_", "-", ".", "~", "+" or "/" (may end in "=")');
  return raw;
}

function parseDomain(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(raw))
    throw new ConfigError(name, `must be a domain name such as replies.example.com, got "${raw}"`);
  return raw.toLowerCase();
}

export const APP_CONFIG = Symbol('AppConfig');
