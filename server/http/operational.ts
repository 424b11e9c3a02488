// Routes for operators and readers rather than API consumers; no authentication.
//   /healthz   the process is up and serving
//   /readyz    the database answers and the access audit can record (load balancers
//              take the instance out when not)
//   /metrics   Prometheus metrics
//   /docs, /openapi.yaml, /openapi.json   the contract, rendered and raw (see docs.ts)
import type { ServerResponse } from 'node:http';
import { ApiError } from '../errors.js';
import type { Metrics } from '../observability/metrics.js';
import type { DocsResponder } from './docs.js';
import { sendError, sendJson } from './respond.js';
import type { PlainHandler } from './router.js';

const READINESS_TIMEOUT_MS = 2_000;

export function operationalRoutes(deps: {
  /** The database, which readiness pings. */
  db: { ping(): Promise<void> };
  metrics: Metrics;
  draftsEnabled: boolean /** Shutting down: not ready. */;
  draining: () => boolean;
  /** The access audit can record a response now (its spool has a file open); absent: always. */
  auditReady?: () => boolean;
  /** Where reads go to replicas: each database's state, known without a query (db/replicas/readRouting.ts). */
  databases?: () => readonly { name: string; role: string; up: boolean; lagMs?: number }[];
}): Record<string, PlainHandler> {
  // Loaded and built on the first request for them: the rendered reference holds Redoc's
  // browser bundle and the contract's YAML, which a server that is never asked for its
  // docs need not load, read, parse or keep.
  let docs: Promise<DocsResponder> | undefined;
  const serveDocs: PlainHandler = async (req, res) => {
    docs ??= import('./docs.js')
      .then(({ createDocsResponder }) => createDocsResponder({ draftsEnabled: deps.draftsEnabled }))
      .catch((error: unknown) => {
        docs = undefined; // tried again on the next request
        throw error;
      });
    const found = (await docs)(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (!found) return sendError(res, new ApiError('not_found'));
    res.writeHead(found.status, { ...found.headers, 'Content-Type': found.contentType });
    res.end(found.body);
  };
  return {
    '/healthz': (_req, res) => sendJson(res, 200, { status: 'ok' }, { 'Cache-Control': 'no-store' }),
    '/readyz': async (_req, res) => {
      if (deps.databases) return replicaReadiness(res, deps.databases(), deps.draining() || (deps.auditReady !== undefined && !deps.auditReady()));
      try {
        if (deps.draining()) throw new Error('shutting down');
        if (deps.auditReady && !deps.auditReady()) throw new Error('the access audit spool has no file open');
        await withTimeout(deps.db.ping(), READINESS_TIMEOUT_MS);
        sendJson(res, 200, { status: 'ready' }, { 'Cache-Control': 'no-store' });
      } catch {
        sendError(res as ServerResponse, new ApiError('service_unavailable', undefined, { 'Retry-After': '1' }), { 'Cache-Control': 'no-store' });
      }
    },
    '/metrics': async (_req, res) => {
      const { contentType, text } = await deps.metrics.exposition();
      res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
      res.end(text);
    },
    '/docs': serveDocs,
    '/docs/*': serveDocs,
    '/openapi.yaml': serveDocs,
    '/openapi.json': serveDocs,
  };
}

/**
 * Readiness where reads go to replicas: each database and its lag, as the instance knows
 * them; ready while some database answers (with the primary down, replicas still serve).
 * Unready, the answer is the usual 503 (the metrics say which database is down).
 */
function replicaReadiness(res: ServerResponse, databases: readonly { name: string; role: string; up: boolean; lagMs?: number }[], unready: boolean): void {
  const headers = { 'Cache-Control': 'no-store' };
  if (unready || !databases.some((d) => d.up)) return sendError(res, new ApiError('service_unavailable', undefined, { 'Retry-After': '1' }), headers);
  const listed = databases.map(({ name, role, up, lagMs }) => ({ name, role, up, ...(lagMs === undefined ? {} : { lagMs }) }));
  sendJson(res, 200, { status: 'ready', databases: listed }, headers);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), ms);
    }),
  ]);
}
