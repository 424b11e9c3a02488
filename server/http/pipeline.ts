// The life of a request, in the order DECISIONS.md fixes: protocol checks (400/417) →
// route (404; OPTIONS answered here) → authentication (401) → rate limit (429) → body and
// validation (413/415/400) → the operation, which decides authorization (403/404). Every
// failure leaves through the error registry. Whatever the answer, a body still arriving
// is not read past the limit: the connection closes after the answer (lingeringClose.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import type { Contract } from '../contract.js';
import { ApiError } from '../errors.js';
import type { RateLimits } from '../limits/rateLimiter.js';
import type { FaultLog } from '../observability/faultLog.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { OperationHandler, OperationId } from '../operations/types.js';
import type { Authenticator } from './authenticate.js';
import { readJsonBody } from './body.js';
import type { ClientAddressOf } from './clientAddress.js';
import type { Cors } from './cors.js';
import { databaseDeadlineMs, withDeadline } from './deadline.js';
import { toApiError } from './faults.js';
import { bodyStillArriving, closeAfterAnswer } from './lingeringClose.js';
import { protocolViolation } from './protocolChecks.js';
import { requestIdOf } from './requestId.js';
import { sendError, sendJson } from './respond.js';
import type { Router } from './router.js';
import { validateRequest } from './validation.js';

export interface PipelineDeps {
  api: Contract;
  router: Router;
  operations: Record<OperationId, OperationHandler>;
  authenticator: Authenticator;
  limits: RateLimits;
  cors: Cors;
  clientAddress: ClientAddressOf;
  config: Config;
  logger: Logger;
  faults: FaultLog;
  metrics: Metrics;
}

export function createRequestHandler(deps: PipelineDeps) {
  const bodyLimits = { maxBytes: deps.config.bodyLimitBytes, maxDepth: deps.config.maxJsonDepth };
  const databaseDeadline = databaseDeadlineMs(deps.config);

  return async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const requestId = requestIdOf(req.headers['x-request-id']);
    let route = 'unmatched';
    // X-Request-Id goes out with the other headers in writeHead, not setHeader: a header set
    // beforehand sends every header through Node's slower merge-and-validate path
    // (measured at about a sixth of hello's CPU time per request).
    const baseHeaders = deps.cors.withHeaders(req, { 'X-Request-Id': requestId });
    let headers = baseHeaders;
    // Called right before an answer is written: a body still on its way is not read.
    const beforeAnswer = () => {
      if (bodyStillArriving(req)) closeAfterAnswer(req, res);
    };
    try {
      const violation = protocolViolation(req);
      if (violation) {
        route = 'malformed';
        beforeAnswer();
        sendError(res, violation.error, headers, violation.status);
        return;
      }
      const url = originForm(req.url ?? '/');
      const queryStart = url.indexOf('?');
      const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
      if (req.method === 'OPTIONS') {
        // `OPTIONS *` asks about the server as a whole (RFC 9110 §9.3.7).
        const methods = pathname === '*' ? ['GET', 'HEAD', 'POST'] : deps.router.methodsFor(pathname);
        if (!methods.length) throw new ApiError('not_found');
        route = 'options';
        beforeAnswer();
        deps.cors.answerOptions(req, res, methods, headers);
        return;
      }
      const found = deps.router.find(req.method ?? 'GET', pathname);
      if (!found) throw new ApiError('not_found');
      if (found.route.kind === 'plain') {
        // The template, not the path: a label per requested /docs/... path would let any
        // caller grow the metrics registry without bound.
        route = found.route.path;
        beforeAnswer();
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
        await found.route.handle(req, res);
        return;
      }
      const { operation } = found.route;
      route = operation.operationId!;
      if (found.route.draft && !deps.config.draftsEnabled) throw new ApiError('not_found');

      const address = deps.clientAddress(req);
      await deps.limits.checkAuthFailures(address);
      const credential = await deps.authenticator.authenticate(req.headers.authorization).catch(async (error) => {
        // Past the address's budget this throws rate_limited instead of the 401.
        if (error instanceof ApiError && error.code === 'invalid_api_key') await deps.limits.recordAuthFailure(address);
        throw error;
      });
      headers = { ...(await deps.limits.consume(credential.id)).headers, ...baseHeaders };

      const body = found.route.hasBody ? await readJsonBody(req, res, bodyLimits) : undefined;
      const query = queryStart === -1 || found.route.ignoresQuery ? {} : parseQuery(url.slice(queryStart + 1), found.route.arrayQueryParams);
      const input = validateRequest(deps.api, operation, { path: found.params, query, headers: req.headers, body });

      // Operations that wait on the database (a promise; hello answers at once) get a deadline.
      const pending = deps.operations[route as OperationId]({ params: input.path, query: input.query, body: input.body, credential });
      const result = pending instanceof Promise ? await withDeadline(pending, databaseDeadline) : pending;
      beforeAnswer();
      sendJson(res, result.status, result.body, { ...headers, ...result.headers });
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.status >= 500) deps.faults.report(error, apiError, { requestId, route });
      if (apiError.code === 'rate_limited') deps.metrics.rateLimited.inc({ route });
      if (res.headersSent) res.destroy();
      else {
        beforeAnswer();
        sendError(res, apiError, headers);
      }
    } finally {
      const seconds = (performance.now() - started) / 1000;
      deps.metrics.observe(route, req.method ?? 'GET', res.statusCode, seconds);
      deps.logger.info({ requestId, method: req.method, route, status: res.statusCode, ms: Math.round(seconds * 10_000) / 10 }, 'request');
    }
  };
}

/**
 * The path and query of a request target. Proxies send the absolute form
 * (`GET http://host/v1/... HTTP/1.1`), which a server must accept (RFC 9112 §3.2.2).
 */
function originForm(target: string): string {
  if (target.charCodeAt(0) === 47 /* / */ || target === '*') return target;
  try {
    const url = new URL(target);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.pathname + url.search : target;
  } catch {
    return target;
  }
}

/** Query string → object; repeated keys become arrays, and array parameters always are. */
function parseQuery(search: string, arrayParams: Set<string>): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  if (!search) return query;
  for (const [key, value] of new URLSearchParams(search)) {
    const previous = query[key];
    if (previous === undefined) query[key] = arrayParams.has(key) ? [value] : value;
    else query[key] = ([] as string[]).concat(previous, value);
  }
  return query;
}
