// The life of a request, in the order DECISIONS.md fixes: protocol checks (400/417) →
// route (404, 405 for a method the path does not serve; OPTIONS answered here) → authentication (401) → rate limit (429) → body and
// validation (413/415/400) → the operation, which decides authorization (403/404). Every
// failure leaves through the error registry. Whatever the answer, a body still arriving
// is not read past the limit: the connection closes after the answer (lingeringClose.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import type { Credential } from '../db/credentials.js';
import { ApiError } from '../errors.js';
import type { RateLimits } from '../limits/rateLimiter.js';
import type { FaultLog } from '../observability/faultLog.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { OperationHandler, OperationId } from '../operations/types.js';
import type { ServedContract } from '../servedContract.js';
import type { Authenticator } from './authenticate.js';
import { readJsonBody } from './body.js';
import type { ClientAddressOf } from './clientAddress.js';
import type { Cors } from './cors.js';
import { databaseDeadlineMs, withDeadline } from './deadline.js';
import { toApiError } from './faults.js';
import { bodyStillArriving, closeAfterAnswer } from './lingeringClose.js';
import { protocolViolation } from './protocolChecks.js';
import { requestIdOf } from './requestId.js';
import { type HeaderList, sendError, sendJson, sendJsonText } from './respond.js';
import type { Router } from './router.js';
import { validateRequest } from './validation.js';

export interface PipelineDeps {
  api: ServedContract;
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
  const logRequests = () => deps.logger.isLevelEnabled('info');

  /** Authentication; a failure counts against the address's budget (past it, rate_limited instead of the 401). */
  const authenticate = (address: string, header: string | undefined, now: number): Credential | Promise<Credential> => {
    const onFailure = (error: unknown): never | Promise<never> => {
      if (!(error instanceof ApiError && error.code === 'invalid_api_key')) throw error;
      return then(deps.limits.recordAuthFailure(address), () => {
        throw error;
      });
    };
    try {
      const credential = deps.authenticator.authenticate(header, now);
      return credential instanceof Promise ? credential.catch(onFailure) : credential;
    } catch (error) {
      return onFailure(error);
    }
  };

  // Each step answers at once where it can: a cached credential, the in-memory budget and
  // hello need no promise, so such a request is served in one synchronous run; the steps
  // that wait (a database lookup, Redis, a body, a person operation) continue as promises.
  return function handleRequest(req: IncomingMessage, res: ServerResponse): void | Promise<void> {
    const started = performance.now();
    const requestId = requestIdOf(req.headers['x-request-id']);
    // X-Request-Id goes out with the other headers in writeHead, not setHeader: a header set
    // beforehand sends every header through Node's slower merge-and-validate path.
    const state: RequestState = { route: 'unmatched', headers: ['X-Request-Id', requestId] };
    deps.cors.addHeaders(req, state.headers);
    // Called right before an answer is written: a body still on its way is not read.
    const beforeAnswer = () => {
      if (bodyStillArriving(req)) closeAfterAnswer(req, res);
    };
    const fail = (error: unknown) => {
      const apiError = toApiError(error);
      if (apiError.status >= 500) deps.faults.report(error, apiError, { requestId, route: state.route });
      if (apiError.code === 'rate_limited') deps.metrics.rateLimited(state.route);
      if (res.headersSent) res.destroy();
      else {
        beforeAnswer();
        sendError(res, apiError, state.headers);
      }
    };
    const finish = () => {
      const seconds = (performance.now() - started) / 1000;
      deps.metrics.observe(state.route, req.method ?? 'GET', res.statusCode, seconds);
      if (logRequests())
        deps.logger.info({ requestId, method: req.method, route: state.route, status: res.statusCode, ms: Math.round(seconds * 10_000) / 10 }, 'request');
    };
    let served: void | Promise<void> | undefined;
    try {
      served = serve(req, res, state, beforeAnswer);
    } catch (error) {
      fail(error);
    }
    if (served instanceof Promise) return served.catch(fail).finally(finish);
    finish();
  };

  function serve(req: IncomingMessage, res: ServerResponse, state: RequestState, beforeAnswer: () => void): void | Promise<void> {
    const violation = protocolViolation(req);
    if (violation) {
      state.route = 'malformed';
      beforeAnswer();
      sendError(res, violation.error, state.headers, violation.status);
      return;
    }
    const url = originForm(req.url ?? '/');
    const queryStart = url.indexOf('?');
    const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
    if (req.method === 'OPTIONS') {
      // `OPTIONS *` asks about the server as a whole (RFC 9110 §9.3.7).
      const methods = pathname === '*' ? ['GET', 'HEAD', 'POST'] : deps.router.methodsFor(pathname, deps.config.draftsEnabled);
      if (!methods.length) throw new ApiError('not_found');
      state.route = 'options';
      beforeAnswer();
      deps.cors.answerOptions(req, res, methods, state.headers);
      return;
    }
    const found = deps.router.find(req.method ?? 'GET', pathname);
    if (!found) throw notFoundOrNotAllowed(deps.router.methodsFor(pathname, deps.config.draftsEnabled));
    const { route } = found;
    if (route.kind === 'plain') {
      // The template, not the path: a label per requested /docs/... path would let any
      // caller grow the metrics registry without bound.
      state.route = route.path;
      beforeAnswer();
      for (let i = 0; i < state.headers.length; i += 2) res.setHeader(state.headers[i]!, state.headers[i + 1]!);
      return route.handle(req, res);
    }
    const { operation } = route;
    const operationId = operation.operationId as OperationId;
    state.route = operationId;
    if (route.draft && !deps.config.draftsEnabled) throw new ApiError('not_found');

    const address = deps.clientAddress(req);
    // One clock reading for the budgets, the credential's expiry and its last use.
    const now = Date.now();
    return then(deps.limits.checkAuthFailures(address, now), () =>
      then(authenticate(address, req.headers.authorization, now), (credential) =>
        // The budget adds its RateLimit-* headers to the ones every answer carries.
        then(deps.limits.consume(credential.id, state.headers, now), () =>
          then(route.hasBody ? readJsonBody(req, res, bodyLimits) : undefined, (body) => {
            const query = queryStart === -1 || route.ignoresQuery ? {} : parseQuery(url.slice(queryStart + 1), route.arrayQueryParams);
            const input = validateRequest(deps.api, operation, { path: found.params, query, headers: req.headers, body });
            // Operations that wait on the database (a promise; hello answers at once) get a deadline.
            const pending = deps.operations[operationId]({ params: input.path, query: input.query, body: input.body, credential });
            return then(pending instanceof Promise ? withDeadline(pending, databaseDeadline) : pending, (result) => {
              beforeAnswer();
              const headers = state.headers;
              if (result.headers) for (const name in result.headers) headers.push(name, result.headers[name]!);
              if (result.json !== undefined) sendJsonText(res, result.status, result.json, headers);
              else sendJson(res, result.status, result.body, headers);
            });
          }),
        ),
      ),
    );
  }
}

interface RequestState {
  /** The metrics and log label: the operationId, a plain route's template, or what happened instead. */
  route: string;
  /** The headers every answer to this request carries (the budget's, once spent), flat. */
  headers: HeaderList;
}

/** A path no route serves is not found; a path served with other methods is 405 with them (RFC 9110 §15.5.6). */
function notFoundOrNotAllowed(methods: string[]): ApiError {
  if (!methods.length) return new ApiError('not_found');
  return new ApiError('method_not_allowed', undefined, { Allow: [...methods, 'OPTIONS'].join(', ') });
}

/** `next(value)` at once for a value, after it settles for a promise: the synchronous path stays synchronous. */
function then<T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
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
