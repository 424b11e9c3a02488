// The composition root: builds every part from the configuration and wires them into
// one HTTP server. Nothing here decides behaviour; it only connects the parts.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { auditOff, GroupCommitAuditWriter } from './access/auditWriter.js';
import { Housekeeping } from './access/housekeeping.js';
import { LastUseRecorder } from './access/lastUse.js';
import type { Config } from './config.js';
import { loadContract, warmUp } from './contract.js';
import { openDatabase, type Database } from './db/database.js';
import { migrate } from './db/migrate.js';
import { Authenticator } from './http/authenticate.js';
import { clientErrorHandler } from './http/clientError.js';
import { databaseDeadlineMs } from './http/deadline.js';
import { createRequestHandler } from './http/pipeline.js';
import { buildRouter } from './http/router.js';
import { operationalRoutes } from './http/operational.js';
import { RateLimits } from './limits/rateLimiter.js';
import { createLogger, type Logger } from './observability/logger.js';
import { Metrics } from './observability/metrics.js';
import { createOperations } from './operations/index.js';

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

export interface App {
  server: Server;
  db: Database;
  logger: Logger;
  /** Starts listening on the configured host and port; resolves to the base URL. */
  listen(): Promise<string>;
  /** Stops accepting, lets in-flight requests finish, then closes the pool and Redis. */
  close(): Promise<void>;
}

export interface AppOverrides {
  logger?: Logger;
  /** An already-open database (tests share one per file). Not closed by close(). */
  db?: Database;
}

export async function createApp(config: Config, overrides: AppOverrides = {}): Promise<App> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const db = overrides.db ?? (await openDatabase(config));
  await migrate(db);
  const api = loadContract();
  warmUp(api);

  const redis = config.redisUrl
    ? // A Redis that hangs must not hang requests: after REDIS_TIMEOUT_MS the limiter falls
      // back to this instance's in-memory budget, as it does when Redis is down.
      new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false, commandTimeout: REDIS_TIMEOUT_MS })
    : undefined;
  redis?.on('error', (error) => logger.warn({ err: error }, 'redis unavailable; rate limits fall back to this instance'));
  // Until Redis is ready every request draws on this instance's own fallback budget, so
  // give it a moment at start; a Redis that is down delays the start by that much only.
  if (redis && !(await redisReady(redis, REDIS_START_WAIT_MS))) logger.warn('redis not ready at start; rate limits use this instance until it is');

  const audit = config.auditEnabled ? new GroupCommitAuditWriter(db, { durability: config.auditDurability }) : auditOff;
  const lastUse = new LastUseRecorder(db, logger);
  const housekeeping = new Housekeeping(db, logger, config.auditRetentionDays);
  housekeeping.start();

  const metrics = new Metrics(db.poolStats?.bind(db));
  const limits = new RateLimits({ ...config.rateLimit, authFailuresPerMinute: config.authFailuresPerMinute, keyPrefix: config.rateLimitKeyPrefix }, redis);
  const router = buildRouter(api, operationalRoutes({ db, metrics, draftsEnabled: config.draftsEnabled }));
  const handler = createRequestHandler({
    api,
    router,
    operations: createOperations(db, audit, { defaultPhoneRegion: config.defaultPhoneRegion, inlineCompaniesMax: config.inlineCompaniesMax }),
    authenticator: new Authenticator(db, config.credentialCacheMs, databaseDeadlineMs(config), lastUse),
    limits,
    config,
    logger,
    metrics,
  });

  // While closing, every response says Connection: close, so a keep-alive client lets go
  // as soon as its answer is out instead of holding the shutdown for keepAliveTimeout.
  let closing = false;
  const inFlight = new Set<ServerResponse>();
  const server = createServer(
    {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      keepAliveTimeout: 5_000,
      // Node checks the two timeouts above only this often (30 s by default), which would
      // let a slow client hold a connection far past HEADERS_TIMEOUT_MS.
      connectionsCheckingInterval: Math.min(1_000, config.headersTimeoutMs),
    },
    (req, res) => {
      inFlight.add(res);
      res.once('close', () => inFlight.delete(res));
      if (closing) res.setHeader('Connection', 'close');
      void handler(req, res);
    },
  );
  server.on('clientError', clientErrorHandler(logger, metrics));

  return {
    server,
    db,
    logger,
    listen: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          const { port } = server.address() as AddressInfo;
          const host = config.host.includes(':') ? `[${config.host}]` : config.host;
          resolve(`http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`);
        });
      }),
    async close() {
      closing = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      redis?.disconnect();
      // Requests are done, so are their audit entries; what remains goes before the pool does.
      await Promise.all([audit.close(), lastUse.close(), housekeeping.close()]);
      if (!overrides.db) await db.close();
    },
  };
}
