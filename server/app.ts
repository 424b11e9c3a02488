// The composition root: builds every part from the configuration and wires them into
// one HTTP server. Nothing here decides behaviour; it only connects the parts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, Server as NetServer } from 'node:net';
import type { Redis } from 'ioredis';
import { AuditShipper } from './access/auditShipper.js';
import { auditInStatement, auditOff, auditSpooled } from './access/auditWriter.js';
import { Housekeeping } from './access/housekeeping.js';
import { LastUseRecorder } from './access/lastUse.js';
import { auditDurabilityFor, type Config, ConfigError, requirePersistentStorage } from './config.js';
import { connectDatabase } from './db/engines/connect.js';
import type { Database, Queryable } from './db/engines/database.js';
import { SqlChangeFeed } from './db/feed/read.js';
import { AuditedReads } from './db/reads/auditedReads.js';
import { migrate, newerMigrations, pendingSteps } from './db/schema/migrate.js';
import { SqlCredentials } from './db/stores/credentials.js';
import type { AccessAudit } from './domain/accessAudit.js';
import type { CredentialConfirmation } from './domain/credentials.js';
import { FeedClock } from './feed/clock.js';
import { Authenticator } from './http/authenticate.js';
import { clientAddressResolver } from './http/clientAddress.js';
import { clientErrorHandler, connectHandler, rememberResponse } from './http/clientError.js';
import { createCors } from './http/cors.js';
import { databaseDeadlineMs } from './http/deadline.js';
import { isLingering } from './http/lingeringClose.js';
import { operationalRoutes } from './http/operational.js';
import { createRequestHandler } from './http/pipeline.js';
import { buildRouter } from './http/router.js';
import { RateLimits } from './limits/rateLimiter.js';
import { RedisHealth } from './limits/redisHealth.js';
import { FaultLog } from './observability/faultLog.js';
import { createLogger, type Logger } from './observability/logger.js';
import { Metrics } from './observability/metrics.js';
import { openTracing } from './observability/openTracing.js';
import type { Tracing } from './observability/tracing.js';
import { createOperations } from './operations/index.js';
import { loadServedContract } from './servedContract.js';
import { WebhookWorker } from './webhooks/worker.js';

const REDIS_TIMEOUT_MS = 500;
const REDIS_START_WAIT_MS = 2_000;

function redisReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), ms);
    const onReady = () => done(true);
    function done(ready: boolean) {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    }
    redis.once('ready', onReady);
  });
}

/**
 * The schema at start: migrated (the default, fine for one instance), or, with
 * MIGRATE_ON_START=false (the migration runs as a step of its own), checked and refused
 * when it is behind this release, without changing anything.
 */
async function schemaAtStart(db: Database, migrateOnStart: boolean, logger: Logger): Promise<void> {
  if (migrateOnStart) await migrate(db);
  const pending = migrateOnStart ? [] : await pendingSteps(db);
  if (pending.length)
    throw new ConfigError(
      `MIGRATE_ON_START=false and the database schema is behind this release (pending: ${pending.join(', ')}): run the migration first (node dist/server/cli/migrate.js, or npm run migrate)`,
    );
  // An older instance during a rollout, or after a rollback: it serves, and says so.
  const newer = await newerMigrations(db);
  if (newer.length)
    logger.warn(
      { newerMigrations: newer },
      'the database was migrated by a newer build; serving with this one, its derived-data upkeep left as the newer build wrote it',
    );
}

/** The configured database as the service opens it: its connections named lookup-service in pg_stat_activity (a command's: lookup-<command>). */
const asService = (config: Config) => ({ ...config, applicationName: 'lookup-service' });

/** The replicas' router; its module (and pg's) is loaded only where replicas are configured. */
async function openReadRouter(config: Config, primary: Database, logger: Logger) {
  const { nameReplicas, ReadRouter } = await import('./db/replicas/readRouting.js');
  return ReadRouter.open(primary, nameReplicas(config.replicaUrls), asService(config), {
    maxLagMs: config.replicaMaxLagMs,
    checkTimeoutMs: config.replicaCheckTimeoutMs,
    onChange: (database, up, error) =>
      up ? logger.info({ database }, 'database answers again') : logger.warn({ database, err: error }, 'database down; reads go elsewhere'),
  });
}

export interface App {
  server: Server;
  db: Database;
  logger: Logger;
  /** Starts listening on the configured host and port; resolves to the base URL. */
  listen(): Promise<string>;
  /** Stops accepting, lets in-flight requests finish, ships the audit spool, then closes the pool and Redis. */
  close(): Promise<void>;
  /** The audit spool's shipper (AUDIT_DURABILITY=spool): tests drain it before reading access_audit. */
  auditShipper?: AuditShipper;
}

export interface AppOverrides {
  logger?: Logger;
  /** An already-open database (tests share one per file). Not closed by close(). */
  db?: Database;
}

export async function createApp(config: Config, overrides: AppOverrides = {}): Promise<App> {
  // Traces only where configured: otherwise no OpenTelemetry module is even loaded.
  const tracing = config.tracing && (await openTracing(config.tracing));
  const logger = overrides.logger ?? createLogger(config.logLevel, undefined, tracing ? () => tracing.logFields() : undefined);
  const { db, replicas, reads, confirmation } = await openData(config, overrides, logger, tracing);
  const api = await loadServedContract();
  const redis = await connectRedis(config, logger);
  if (redis && tracing) tracing.redis(redis);
  const jobs = await startJobs(config, db, logger);

  // While closing, every response says Connection: close, so a keep-alive client lets go
  // as soon as its answer is out instead of holding the shutdown for keepAliveTimeout, and
  // /readyz answers 503 so a balancer still probing takes the instance out.
  let closing = false;
  // The worker keeps its endpoints' feed lag for /metrics, which reads no database.
  let webhooks: WebhookWorker | undefined;
  const metrics = new Metrics(
    db.poolStats?.bind(db),
    replicas && (() => replicas.status()),
    config.webhooks.enabled ? () => webhooks?.feedLag() ?? [] : undefined,
  );
  webhooks = startWebhooks(config, db, logger, metrics, tracing);
  const faults = new FaultLog(logger);
  const limits = await RateLimits.create(
    { ...config.rateLimit, authFailuresPerMinute: config.authFailuresPerMinute, keyPrefix: config.rateLimitKeyPrefix },
    redis,
  );
  const router = buildRouter(
    api,
    operationalRoutes({
      db,
      metrics,
      draftsEnabled: config.draftsEnabled,
      draining: () => closing,
      auditReady: jobs.auditShipper && (() => jobs.auditShipper!.spool.current !== undefined),
      databases: replicas && (() => replicas.status()),
    }),
  );
  const handler = createRequestHandler({
    api,
    router,
    operations: createOperations(new AuditedReads(reads, jobs.audit), new SqlChangeFeed(reads), {
      defaultPhoneRegion: config.defaultPhoneRegion,
      inlineCompaniesMax: config.inlineCompaniesMax,
    }),
    authenticator: new Authenticator(new SqlCredentials(reads, !!replicas), config.credentialCacheMs, databaseDeadlineMs(config), jobs.lastUse, confirmation),
    limits,
    cors: createCors({ origins: config.corsOrigins, loopback: config.corsLoopback }),
    clientAddress: clientAddressResolver(config.trustedProxies),
    config,
    logger,
    faults,
    metrics,
    tracing,
  });
  const inFlight = new Set<ServerResponse>();
  const server = createHttpServer(config, handler, inFlight, () => closing, logger, metrics);

  return {
    server,
    db,
    logger,
    auditShipper: jobs.auditShipper,
    listen: () => listen(server, config),
    async close() {
      closing = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      await stopAccepting(server, config.keepAliveTimeoutMs);
      faults.close();
      limits.close();
      redis?.disconnect();
      // Requests are done, so are their audit entries; what remains goes before the pool
      // does, the spooled entries included.
      await Promise.all([jobs.lastUse.close(), jobs.housekeeping.close(), jobs.feedClock.close(), jobs.auditShipper?.close(), webhooks?.close()]);
      await replicas?.close();
      if (!overrides.db) await db.close();
      await tracing?.shutdown();
    },
  };
}

/** The primary (migrated), and with replicas the router reads go through (traced where traces are on). */
async function openData(config: Config, overrides: AppOverrides, logger: Logger, tracing: Tracing | undefined) {
  if (!overrides.db) requirePersistentStorage(config);
  const db =
    overrides.db ??
    (await connectDatabase(asService(config), {
      connectTimeoutMs: config.databaseConnectTimeoutMs,
      onWaiting: (cause) => logger.warn({ cause, timeoutMs: config.databaseConnectTimeoutMs }, 'database not reachable yet; waiting for it'),
    }));
  await schemaAtStart(db, config.migrateOnStart, logger).catch(async (error) => {
    if (!overrides.db) await db.close().catch(() => {});
    throw error;
  });
  // With replicas, the person operations and hello read through the router; every write
  // (the audit, last use, housekeeping) keeps the primary. Without, reads are the primary's.
  const replicas = config.replicaUrls.length ? await openReadRouter(config, db, logger) : undefined;
  // With traces on, what requests ask of the database makes child spans of theirs.
  const traced = (target: Queryable) => (tracing ? tracing.queryable(target) : target);
  const reads: Queryable = traced(replicas ?? db);
  // What a replica does not know yet is asked of the primary before a 401 or 403.
  const primaryCredentials = new SqlCredentials(traced(db), true);
  const confirmation: CredentialConfirmation | undefined = replicas && {
    findActive: (tokenHash) => primaryCredentials.findActive(tokenHash),
    available: () => replicas.primaryUp,
  };
  return { db, replicas, reads, confirmation };
}

/** The Redis client, loaded only where one is configured. */
async function connectRedis(config: Config, logger: Logger): Promise<Redis | undefined> {
  if (!config.redisUrl) return undefined;
  // A Redis that hangs must not hang requests: after REDIS_TIMEOUT_MS the limiter falls
  // back to this instance's in-memory budget, as it does when Redis is down.
  const redis = new (await import('ioredis')).Redis(config.redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
    commandTimeout: REDIS_TIMEOUT_MS,
  });
  const health = new RedisHealth(redis, logger);
  // Until Redis is ready every request draws on this instance's own fallback budget, so
  // give it a moment at start; a Redis that is down delays the start by that much only.
  if (!(await redisReady(redis, REDIS_START_WAIT_MS))) health.lost(`not ready within ${REDIS_START_WAIT_MS} ms of the start`);
  return redis;
}

/** What runs beside the requests: the access audit (and its spool's shipper), last use, housekeeping, the change feed's clock. */
async function startJobs(config: Config, db: Database, logger: Logger) {
  const durability = auditDurabilityFor(config, db.kind);
  const auditShipper = config.auditEnabled && durability === 'spool' ? await AuditShipper.start(db, config.auditSpoolDir, logger) : undefined;
  const audit: AccessAudit = !config.auditEnabled
    ? auditOff
    : auditShipper
      ? auditSpooled(auditShipper.spool)
      : auditInStatement(durability as Exclude<typeof durability, 'spool'>);
  const lastUse = new LastUseRecorder(db, logger);
  const housekeeping = new Housekeeping(db, logger, config.auditRetentionDays, config.changesRetentionMs);
  housekeeping.start();
  const feedClock = new FeedClock(db, logger);
  feedClock.start();
  return { auditShipper, audit, lastUse, housekeeping, feedClock };
}

/**
 * The webhook worker (WEBHOOKS_ENABLED, the default), on the primary: every instance runs
 * one, and they share the endpoints (server/webhooks/worker.ts). Its statements are
 * children of its deliveries' spans where traces are on.
 */
function startWebhooks(config: Config, db: Database, logger: Logger, metrics: Metrics, tracing: Tracing | undefined): WebhookWorker | undefined {
  if (!config.webhooks.enabled) return undefined;
  const worker = new WebhookWorker(tracing ? tracing.queryable(db) : db, logger, {
    pollIntervalMs: config.webhooks.pollIntervalMs,
    concurrency: config.webhooks.concurrency,
    allowPrivateTargets: config.webhooks.allowPrivateTargets,
    observer: metrics,
    spans: tracing,
    // Requests first: a round is skipped while the pool has no connection to spare.
    busy: () => {
      const pool = db.poolStats?.();
      return pool !== undefined && (pool.waiting > 0 || (pool.idle === 0 && pool.total >= pool.max));
    },
  });
  worker.start();
  return worker;
}

/** node:http's server around the handler; `inFlight` holds the responses still being worked on. */
function createHttpServer(
  config: Config,
  handler: ReturnType<typeof createRequestHandler>,
  inFlight: Set<ServerResponse>,
  closing: () => boolean,
  logger: Logger,
  metrics: Metrics,
): Server {
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    // A request pipelined behind one whose connection is closing: it is not answered.
    if (isLingering(req.socket)) return;
    rememberResponse(req.socket, res);
    if (closing()) res.setHeader('Connection', 'close');
    // A request answered in one synchronous run (hello, mostly) is done before a shutdown
    // could look at it; only the ones still waiting are kept for close() to tell.
    const served = handler(req, res);
    if (served instanceof Promise) {
      inFlight.add(res);
      void served.finally(() => inFlight.delete(res));
    }
  };
  const server = createServer(
    {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      // Node checks the two timeouts above only this often (30 s by default), which would
      // let a slow client hold a connection far past HEADERS_TIMEOUT_MS.
      connectionsCheckingInterval: Math.min(1_000, config.headersTimeoutMs),
      // Node would answer a missing Host with an empty 400; the pipeline answers it in the
      // contract's shape (http/protocolChecks.ts).
      requireHostHeader: false,
    },
    onRequest,
  );
  server.on('clientError', clientErrorHandler(logger, metrics));
  server.on('connect', connectHandler(logger, metrics));
  // Node answers 100 Continue, or 417 with an empty body, before the request is seen. The
  // pipeline decides instead: 100 Continue only once it is about to read the body (so a
  // caller without a valid token never sends it), 417 in the contract's shape.
  server.on('checkContinue', onRequest);
  server.on('checkExpectation', onRequest);
  return server;
}

function listen(server: Server, config: Config): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', (error) => reject(listenProblem(error, config)));
    server.listen(config.port, config.host, () => {
      const { port } = server.address() as AddressInfo;
      const host = config.host.includes(':') ? `[${config.host}]` : config.host;
      resolve(`http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`);
    });
  });
}

/** A listen error the operator can fix, as one line naming the variable (main.ts prints it so); any other as it is. */
function listenProblem(error: NodeJS.ErrnoException, { host, port }: Config): Error {
  const at = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const lines: Record<string, string> = {
    EADDRINUSE: `PORT=${port}: ${at} is already in use (another instance, or another program): stop it or choose another PORT`,
    EACCES: `PORT=${port}: not allowed to listen on ${at} (a port below 1024 needs privileges): choose a port from 1024 up`,
    EADDRNOTAVAIL: `HOST=${host}: no network interface of this machine has that address`,
    ENOTFOUND: `HOST=${host}: no such host`,
    EAI_AGAIN: `HOST=${host}: the name could not be resolved now (DNS)`,
  };
  const line = error.code ? lines[error.code] : undefined;
  return line ? new ConfigError(line) : error;
}

/**
 * Stops accepting (new connections are refused), but leaves idle keep-alive connections
 * open until the keep-alive timeout they announced: a client may be sending on one right
 * now, and closing it would lose that request (http.Server#close closes them at once,
 * hence net.Server's own close). Each request still arriving is answered with
 * Connection: close; the idle ones left at the timeout are closed then.
 */
async function stopAccepting(server: Server, keepAliveTimeoutMs: number): Promise<void> {
  let idleTimer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve) => {
    NetServer.prototype.close.call(server, () => resolve());
    idleTimer = setTimeout(() => server.closeIdleConnections(), keepAliveTimeoutMs);
  });
  clearTimeout(idleTimer);
}
