// Configuration, from environment variables only, with defaults that make a bare
// `npm start` a working development service.

import { BlockList, isIP } from 'node:net';
import { resolve } from 'node:path';
import { isSupportedCountry } from 'libphonenumber-js/max';

export type Environment = 'development' | 'sandbox' | 'production';
/** spool: appended to a local file before the response, shipped in batches (server/access/auditSpool.ts). */
export type AuditDurability = 'spool' | 'commit' | 'flush';

export interface Config {
  environment: Environment;
  /** Draft operations are served only where this is true (development by default). */
  draftsEnabled: boolean;
  host: string;
  port: number;
  databaseUrl?: string;
  /** How long a PostgreSQL that cannot be reached at start is waited for, with backoff (server/db/engines/connect.ts). */
  databaseConnectTimeoutMs: number;
  /** Hot standbys of DATABASE_URL that serve the person operations and hello (server/db/replicas/readRouting.ts). */
  replicaUrls: string[];
  /** A replica whose heartbeat is older than this is passed over (docs/operating/replicas.md). */
  replicaMaxLagMs: number;
  replicaCheckTimeoutMs: number;
  /** DATABASE_URL (and the replicas' URLs) lead to a pooler in transaction mode, PgBouncer's (server/db/engines/transactionPooling.ts). */
  transactionPooling: boolean;
  /** The primary itself, past the pooler: the audit spool's session-level locks and the commands connect here. */
  databaseDirectUrl?: string;
  pgliteDataDir?: string;
  /** Apply pending migrations at start (the default); false: refuse to serve a schema that is behind. */
  migrateOnStart: boolean;
  poolMax: number;
  statementTimeoutMs: number;
  /** PostgreSQL work_mem for the service's sessions (sorting and de-duplicating people). */
  workMem: string;
  /** Credentials of up to this many companies pass them inline to the planner (see db/reads/queries.ts). */
  inlineCompaniesMax: number;
  /** How long a request waits for a pooled PostgreSQL connection before it is answered 503. */
  connectionTimeoutMs: number;
  redisUrl?: string;
  /** Prefix of every rate-limit key in Redis (and memory): instances sharing a budget share it. */
  rateLimitKeyPrefix: string;
  /** Token bucket per credential: burst size and refill per second. */
  rateLimit: { points: number; perSecond: number };
  /** Failed authentications allowed per client address per minute. */
  authFailuresPerMinute: number;
  bodyLimitBytes: number;
  maxJsonDepth: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  /** How long an idle keep-alive connection stays open (set it above the load balancer's idle timeout). */
  keepAliveTimeoutMs: number;
  /** How long a SIGTERM/SIGINT waits for in-flight requests before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** How long a looked-up credential is trusted before the database is asked again. */
  credentialCacheMs: number;
  defaultPhoneRegion: string;
  logLevel: string;
  /** Load the demo dataset into an empty database at start. */
  loadDemoData: boolean;
  /** The published demo tokens may be served on an address other than loopback (DEMO_ON_ALL_INTERFACES). */
  demoOnAllInterfaces: boolean;
  /** Record every person operation in the access audit (server/access/auditWriter.ts); cannot be off in production. */
  auditEnabled: boolean;
  /** Access-audit entries older than this are deleted by the service's housekeeping. */
  auditRetentionDays: number;
  /** The change feed's changes older than this are pruned by housekeeping; a follower further behind is told to re-sync (docs/decisions/0022-change-feed.md). */
  changesRetentionMs: number;
  /** IMPORT_TIMINGS=1: an import writes how long each step and statement took to stderr (for tuning). */
  importTimings: boolean;
  /**
   * What a person response waits for: its audit entry appended to this instance's spool
   * file (`spool`), committed by its own statement (`commit`), or also flushed to disk
   * (`flush`). Unset: `spool` on PostgreSQL, `commit` on PGlite (see auditDurabilityFor).
   */
  auditDurability?: AuditDurability;
  /** Where `spool` keeps its files: a persistent volume, may be shared by instances. */
  auditSpoolDir: string;
  /** Origins whose pages may call the service from a browser (CORS); none by default. */
  corsOrigins: string[];
  /** Pages this machine serves (http://localhost:<any port>, 127.0.0.1, [::1]) may call it too: development only, never configurable elsewhere. */
  corsLoopback: boolean;
  /** Addresses and CIDR ranges of the proxies whose X-Forwarded-For is believed. */
  trustedProxies: string[];
  /** OpenTelemetry traces, from the standard OTEL_* variables; absent (off) unless an OTLP endpoint is set. */
  tracing?: TracingSettings;
  /** The webhook worker (server/webhooks/worker.ts, docs/operating/webhooks.md). */
  webhooks: WebhookSettings;
}

export interface WebhookSettings {
  /** WEBHOOKS_ENABLED: this instance delivers webhooks (any number of instances may). */
  enabled: boolean;
  /** How often the worker looks for changes to deliver when it has nothing to do. */
  pollIntervalMs: number;
  /** Endpoints one instance delivers to at once (each one batch at a time). */
  concurrency: number;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: plain http and loopback or private addresses allowed (development and tests only). */
  allowPrivateTargets: boolean;
}

/** The samplers of OTEL_TRACES_SAMPLER that the service offers (the specification's built-in ones). */
export const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/** What observability/tracing.ts needs to export spans (docs/operating/observability.md#traces). */
export interface TracingSettings {
  /** The traces URL itself: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  /** Sent with every export (an API key, a tenant); never logged. */
  headers: Record<string, string>;
  timeoutMs: number;
  compression: 'gzip' | 'none';
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES, such as deployment.environment.name. */
  resourceAttributes: Record<string, string>;
  sampler: SamplerName;
  /** The ratio of the traceidratio samplers (OTEL_TRACES_SAMPLER_ARG), 0..1. */
  samplerRatio: number;
  /** An incoming W3C traceparent is continued (OTEL_PROPAGATORS holds tracecontext, the default). */
  continueTraces: boolean;
  /** The batch span processor (OTEL_BSP_*). */
  batch: { scheduleDelayMs: number; maxQueueSize: number; maxExportBatchSize: number; exportTimeoutMs: number };
}

const environments: Environment[] = ['development', 'sandbox', 'production'];
const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config = readConfig(env);
  // node:http refuses to start otherwise; say so in the operator's terms.
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    throw new ConfigError(`HEADERS_TIMEOUT_MS (${config.headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${config.requestTimeoutMs})`);
  }
  // People have a right to know who looked at their data: production always records it.
  if (!config.auditEnabled && config.environment === 'production') {
    throw new ConfigError('AUDIT_ENABLED cannot be false in production: every person operation is recorded in the access audit');
  }
  // The spool is shipped to PostgreSQL by the service; an embedded database lives and dies
  // with the process, so a spool in front of it would protect nothing (see auditSpool.ts).
  if (config.auditDurability === 'spool' && !config.databaseUrl) {
    throw new ConfigError('AUDIT_DURABILITY=spool needs PostgreSQL (DATABASE_URL): the embedded database runs in the service process, use commit or flush');
  }
  // A standby is a copy of a PostgreSQL primary; the embedded database has none.
  if (config.replicaUrls.length && !config.databaseUrl) {
    throw new ConfigError('DATABASE_REPLICA_URLS needs DATABASE_URL: replicas are hot standbys of a PostgreSQL primary, and the embedded database has none');
  }
  if ((config.transactionPooling || config.databaseDirectUrl) && !config.databaseUrl) {
    throw new ConfigError('PG_TRANSACTION_POOLING and DATABASE_DIRECT_URL need DATABASE_URL: they describe how PostgreSQL is reached');
  }
  // A transaction pooler gives no session of one's own: the audit spool's advisory locks
  // (and the commands' temporary tables and settings) need PostgreSQL itself.
  if (config.transactionPooling && !config.databaseDirectUrl) {
    throw new ConfigError(
      'PG_TRANSACTION_POOLING needs DATABASE_DIRECT_URL: a connection to the primary that bypasses the pooler (or a pool in session mode), for the access audit spool and the commands',
    );
  }
  // A read served by a standby cannot write its own audit entry (a standby takes no
  // writes); the spool records it before the response and ships it to the primary.
  if (config.replicaUrls.length && config.auditEnabled && config.auditDurability && config.auditDurability !== 'spool') {
    throw new ConfigError(
      `AUDIT_DURABILITY=${config.auditDurability} writes each audit entry in the read's own statement, which a replica cannot take: with DATABASE_REPLICA_URLS use spool (the default on PostgreSQL)`,
    );
  }
  // A production service posting to its own network on an endpoint's say is what the
  // address checks exist to prevent (docs/decisions/0023-webhooks.md).
  if (config.webhooks.allowPrivateTargets && config.environment === 'production') {
    throw new ConfigError('WEBHOOK_ALLOW_PRIVATE_TARGETS cannot be true in production: webhooks go to public https addresses only there');
  }
  // Shutdown waits for idle keep-alive connections to reach their timeout (see app.ts).
  if (config.keepAliveTimeoutMs >= config.shutdownTimeoutMs) {
    throw new ConfigError(
      `KEEP_ALIVE_TIMEOUT_MS (${config.keepAliveTimeoutMs}) must be less than SHUTDOWN_TIMEOUT_MS (${config.shutdownTimeoutMs}): a shutdown lets idle connections reach their keep-alive timeout`,
    );
  }
  return config;
}

function readConfig(env: NodeJS.ProcessEnv): Config {
  const environment = (env.APP_ENV || 'development') as Environment;
  if (!environments.includes(environment)) throw new ConfigError(`APP_ENV must be one of ${environments.join(', ')}; got "${environment}"`);
  // Every Node platform sets NODE_ENV=production; starting in development there would serve
  // the demo data and the tokens the README publishes (docs/decisions/0017-operator-commands-and-start.md).
  if (env.NODE_ENV === 'production' && environment === 'development') {
    throw new ConfigError(
      `NODE_ENV=production but APP_ENV is ${env.APP_ENV ? 'development' : 'unset (development)'}: set APP_ENV=production (or sandbox) for a deployment, or unset NODE_ENV to develop`,
    );
  }
  return {
    environment,
    draftsEnabled: bool(env, 'DRAFTS_ENABLED', environment === 'development'),
    host: env.HOST || '127.0.0.1',
    port: int(env, 'PORT', 3000, 0, 65535),
    databaseUrl: env.DATABASE_URL ? postgresUrl('DATABASE_URL', env.DATABASE_URL) : undefined,
    databaseConnectTimeoutMs: int(env, 'DATABASE_CONNECT_TIMEOUT_MS', 30_000, 0, 3_600_000),
    replicaUrls: list(env, 'DATABASE_REPLICA_URLS').map((url) => postgresUrl('DATABASE_REPLICA_URLS', url)),
    replicaMaxLagMs: int(env, 'REPLICA_MAX_LAG_MS', 5_000, 100, 3_600_000),
    replicaCheckTimeoutMs: int(env, 'REPLICA_CHECK_TIMEOUT_MS', 750, 50, 60_000),
    transactionPooling: bool(env, 'PG_TRANSACTION_POOLING', false),
    databaseDirectUrl: env.DATABASE_DIRECT_URL ? postgresUrl('DATABASE_DIRECT_URL', env.DATABASE_DIRECT_URL) : undefined,
    pgliteDataDir: env.PGLITE_DATA_DIR || undefined,
    migrateOnStart: bool(env, 'MIGRATE_ON_START', true),
    poolMax: int(env, 'PG_POOL_MAX', 10, 1, 1000),
    statementTimeoutMs: int(env, 'PG_STATEMENT_TIMEOUT_MS', 5_000, 0, 600_000),
    workMem: memory(env, 'PG_WORK_MEM', '32MB'),
    inlineCompaniesMax: int(env, 'PG_INLINE_COMPANIES_MAX', 200, 0, 1_000_000),
    connectionTimeoutMs: int(env, 'PG_CONNECTION_TIMEOUT_MS', 5_000, 1, 600_000),
    redisUrl: env.REDIS_URL ? redisUrl(env.REDIS_URL) : undefined,
    rateLimitKeyPrefix: env.RATE_LIMIT_KEY_PREFIX || 'rl',
    rateLimit: {
      points: int(env, 'RATE_LIMIT_BURST', 100, 1, 1_000_000),
      perSecond: int(env, 'RATE_LIMIT_PER_SECOND', 50, 1, 1_000_000),
    },
    authFailuresPerMinute: int(env, 'AUTH_FAILURES_PER_MINUTE', 30, 1, 1_000_000),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 16 * 1024, 1, 100 * 1024 * 1024),
    maxJsonDepth: int(env, 'MAX_JSON_DEPTH', 16, 2, 1000),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 1, 3_600_000),
    headersTimeoutMs: int(env, 'HEADERS_TIMEOUT_MS', 10_000, 1, 3_600_000),
    keepAliveTimeoutMs: int(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 1, 3_600_000),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 1, 3_600_000),
    credentialCacheMs: int(env, 'CREDENTIAL_CACHE_MS', 10_000, 0, 3_600_000),
    defaultPhoneRegion: phoneRegion(env),
    logLevel: oneOf(env, 'LOG_LEVEL', logLevels, 'info'),
    loadDemoData: bool(env, 'DEMO_DATA', environment === 'development'),
    demoOnAllInterfaces: bool(env, 'DEMO_ON_ALL_INTERFACES', false),
    auditEnabled: bool(env, 'AUDIT_ENABLED', true),
    auditRetentionDays: int(env, 'AUDIT_RETENTION_DAYS', 365, 1, 3650),
    changesRetentionMs: duration(env, 'CHANGES_RETENTION', '30d', HOUR_MS, 3650 * DAY_MS),
    importTimings: bool(env, 'IMPORT_TIMINGS', false),
    auditDurability: env.AUDIT_DURABILITY ? oneOf<AuditDurability>(env, 'AUDIT_DURABILITY', ['spool', 'commit', 'flush'], 'spool') : undefined,
    auditSpoolDir: resolve(env.AUDIT_SPOOL_DIR || 'var/audit-spool'),
    corsOrigins: list(env, 'CORS_ORIGINS').map((origin) => {
      const normalized = normalizeOrigin(origin);
      if (!normalized)
        throw new ConfigError(
          `CORS_ORIGINS must list origins such as https://app.example.com (scheme, host and port only; "*" is not allowed); got "${origin}"`,
        );
      return normalized;
    }),
    corsLoopback: environment === 'development',
    trustedProxies: trustedProxies(env),
    tracing: tracingSettings(env),
    webhooks: {
      enabled: bool(env, 'WEBHOOKS_ENABLED', true),
      pollIntervalMs: int(env, 'WEBHOOKS_POLL_INTERVAL_MS', 200, 10, 60_000),
      concurrency: int(env, 'WEBHOOKS_CONCURRENCY', 16, 1, 1_000),
      allowPrivateTargets: bool(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    },
  };
}

/**
 * The standard OTEL_* variables, as far as the service honours them. Traces are off (and
 * no OpenTelemetry module is loaded) unless an OTLP endpoint is set; OTEL_SDK_DISABLED=true
 * or OTEL_TRACES_EXPORTER=none turn them off again.
 */
function tracingSettings(env: NodeJS.ProcessEnv): TracingSettings | undefined {
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || undefined;
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined;
  if (!tracesEndpoint && !endpoint) return undefined;
  if (bool(env, 'OTEL_SDK_DISABLED', false)) return undefined;
  if (oneOf(env, 'OTEL_TRACES_EXPORTER', ['otlp', 'none'], 'otlp') === 'none') return undefined;
  const url = tracesEndpoint
    ? otlpUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', tracesEndpoint)
    : `${otlpUrl('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint!).replace(/\/+$/, '')}/v1/traces`;
  const perSignal = (name: string) => (env[`OTEL_EXPORTER_OTLP_TRACES_${name}`] ? `OTEL_EXPORTER_OTLP_TRACES_${name}` : `OTEL_EXPORTER_OTLP_${name}`);
  const protocolVariable = perSignal('PROTOCOL');
  if (env[protocolVariable] === 'grpc')
    throw new ConfigError(`${protocolVariable}=grpc is not supported: use http/protobuf (the default) or http/json, on the collector's HTTP port (4318)`);
  const propagators = list(env, 'OTEL_PROPAGATORS');
  const unknownPropagator = propagators.find((name) => !['tracecontext', 'baggage', 'none'].includes(name));
  if (unknownPropagator) throw new ConfigError(`OTEL_PROPAGATORS may hold tracecontext, baggage or none; got "${unknownPropagator}"`);
  const sampler = oneOf<SamplerName>(env, 'OTEL_TRACES_SAMPLER', SAMPLERS, 'parentbased_always_on');
  return {
    url,
    protocol: oneOf(env, protocolVariable, ['http/protobuf', 'http/json'], 'http/protobuf'),
    headers: keyValues(env, perSignal('HEADERS')),
    timeoutMs: int(env, perSignal('TIMEOUT'), 10_000, 1, 600_000),
    compression: oneOf(env, perSignal('COMPRESSION'), ['gzip', 'none'], 'none'),
    serviceName: env.OTEL_SERVICE_NAME || 'person-lookup',
    resourceAttributes: keyValues(env, 'OTEL_RESOURCE_ATTRIBUTES'),
    sampler,
    samplerRatio: sampler.endsWith('traceidratio') ? ratio(env, 'OTEL_TRACES_SAMPLER_ARG') : 1,
    continueTraces: propagators.length === 0 || propagators.includes('tracecontext'),
    batch: {
      scheduleDelayMs: int(env, 'OTEL_BSP_SCHEDULE_DELAY', 5_000, 1, 3_600_000),
      maxQueueSize: int(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2_048, 1, 1_000_000),
      maxExportBatchSize: int(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512, 1, 1_000_000),
      exportTimeoutMs: int(env, 'OTEL_BSP_EXPORT_TIMEOUT', 30_000, 1, 600_000),
    },
  };
}

/** An OTLP/HTTP endpoint: an http or https URL. */
function otlpUrl(name: string, text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {}
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname)
    throw new ConfigError(`${name} must be an http:// or https:// URL such as http://otel-collector:4318; got "${text}"`);
  return text;
}

/** `key1=value1,key2=value2`, values percent-decoded (the W3C Baggage format the OTEL_* lists use). Values are never quoted back: they may be secrets. */
function keyValues(env: NodeJS.ProcessEnv, name: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const entry of list(env, name)) {
    const at = entry.indexOf('=');
    const key = entry.slice(0, at).trim();
    let value: string | undefined;
    try {
      value = at > 0 ? decodeURIComponent(entry.slice(at + 1).trim()) : undefined;
    } catch {}
    if (!key || value === undefined) throw new ConfigError(`${name} must list key=value pairs separated by commas (values percent-encoded)`);
    pairs[key] = value;
  }
  return pairs;
}

function ratio(env: NodeJS.ProcessEnv, name: string): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return 1;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new ConfigError(`${name} must be a number in 0..1; got "${raw}"`);
  return value;
}

/** The audit durability in force: the one set, else `spool` on PostgreSQL and `commit` on embedded PGlite. */
export function auditDurabilityFor(config: Pick<Config, 'auditDurability'>, engine: 'postgres' | 'pglite'): AuditDurability {
  const durability = config.auditDurability ?? (engine === 'postgres' ? 'spool' : 'commit');
  if (durability === 'spool' && engine !== 'postgres') {
    throw new ConfigError('AUDIT_DURABILITY=spool needs PostgreSQL (DATABASE_URL): the embedded database runs in the service process, use commit or flush');
  }
  return durability;
}

/**
 * An in-memory database loses every record at restart: fine for development and tests,
 * never for sandbox or production. Checked where the service opens its own database.
 */
export function requirePersistentStorage(config: Pick<Config, 'environment' | 'databaseUrl' | 'pgliteDataDir'>): void {
  if (config.environment === 'development' || config.databaseUrl || config.pgliteDataDir) return;
  throw new ConfigError(
    `APP_ENV=${config.environment} needs a database that survives a restart: set DATABASE_URL (PostgreSQL) or PGLITE_DATA_DIR (a directory for the embedded database). ` +
      'Without either the service would run on an in-memory database and lose every record when it stops.',
  );
}

/** Whether `host` (HOST) is reachable from this machine only: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice(7) : bare;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

function trustedProxies(env: NodeJS.ProcessEnv): string[] {
  const entries = list(env, 'TRUSTED_PROXIES');
  try {
    trustedProxyList(entries);
  } catch (error) {
    throw new ConfigError(`TRUSTED_PROXIES must list IP addresses or CIDR ranges, such as 10.0.0.0/8,127.0.0.1: ${(error as Error).message}`);
  }
  return entries;
}

/**
 * A BlockList of `entries` (each an IP address or a CIDR range); throws on anything else.
 * Here, where TRUSTED_PROXIES is checked; http/clientAddress.ts builds its list with it.
 */
export function trustedProxyList(entries: readonly string[]): BlockList {
  const blocks = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    if (!family || extra !== undefined) throw new Error(`"${entry}" is not an IP address or CIDR range`);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) blocks.addAddress(address, type);
    else {
      const bits = Number(prefix);
      if (!/^\d+$/.test(prefix) || bits > (family === 6 ? 128 : 32)) throw new Error(`"${entry}" is not an IP address or CIDR range`);
      blocks.addSubnet(address, bits, type);
    }
  }
  return blocks;
}

/** An origin as browsers send it (`https://app.example.com`, no path, default port left out), or undefined. */
function normalizeOrigin(text: string): string | undefined {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/**
 * A PostgreSQL connection string (postgres:// or postgresql://, with a host or a `host=`
 * socket directory), as `name` holds it. The message never quotes it: it may hold a password.
 */
function postgresUrl(name: string, text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {}
  if (!url || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') || !(url.hostname || url.searchParams.get('host')))
    throw new ConfigError(
      `${name} must ${name.endsWith('S') ? 'hold PostgreSQL connection strings' : 'be a PostgreSQL connection string'} such as postgres://user@db-1:5432/lookup; ${describeMalformed(url, text)}`,
    );
  return text;
}

function redisUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {}
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname)
    throw new ConfigError(`REDIS_URL must be a Redis URL such as redis://redis-1:6379 (rediss:// for TLS); ${describeMalformed(url, text)}`);
  return text;
}

/** Why a URL is not one, without its text (which may hold a password). */
function describeMalformed(url: URL | undefined, text: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return 'got one with no scheme:// at its start';
  if (!url) return 'got one that does not parse as a URL';
  if (!url.hostname) return `got ${url.protocol}// with no host`;
  return `got a ${url.protocol}// URL`;
}

/** A comma-separated list; blanks around entries ignored, empty entries dropped. */
function list(env: NodeJS.ProcessEnv, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name} must be an integer in ${min}..${max}; got "${raw}"`);
  return value;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const DURATION_UNITS_MS: Record<string, number> = { m: 60_000, h: HOUR_MS, d: DAY_MS };

/** A duration as operators write it elsewhere (`30d`, `12h`, `1d12h`, `90m`), in milliseconds, within min..max. */
function duration(env: NodeJS.ProcessEnv, name: string, fallback: string, min: number, max: number): number {
  const raw = env[name] || fallback;
  let ms = 0;
  if (/^(?:[0-9]{1,6}[mhd])+$/.test(raw)) for (const [, amount, unit] of raw.matchAll(/([0-9]+)([mhd])/g)) ms += Number(amount) * DURATION_UNITS_MS[unit!]!;
  if (ms < min || ms > max)
    throw new ConfigError(`${name} must be a duration such as 30d, 12h or 1d12h, from ${min / HOUR_MS}h to ${max / DAY_MS}d; got "${raw}"`);
  return ms;
}

function memory(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  if (!/^[1-9][0-9]*(kB|MB|GB)$/.test(raw)) throw new ConfigError(`${name} must be a PostgreSQL memory size such as 32MB; got "${raw}"`);
  return raw;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!allowed.includes(raw as T)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}; got "${raw}"`);
  return raw as T;
}

/** DEFAULT_PHONE_REGION: a region libphonenumber has numbering rules for (ISO 3166 alpha-2), upper-cased. */
function phoneRegion(env: NodeJS.ProcessEnv): string {
  const region = (env.DEFAULT_PHONE_REGION || 'US').toUpperCase();
  if (!isSupportedCountry(region))
    throw new ConfigError(
      `DEFAULT_PHONE_REGION must be a region with phone numbering rules, as an ISO 3166 code such as US, GB or DE; got "${env.DEFAULT_PHONE_REGION}"`,
    );
  return region;
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false; got "${raw}"`);
}
