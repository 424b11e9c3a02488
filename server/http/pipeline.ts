// The life of a request, in the order docs/decisions/0005-error-codes.md fixes: protocol checks (400/417) →
// route (404, 405 for a method the path does not serve; OPTIONS answered here) → authentication (401) → rate limit (429) → body and
// validation (413/415/400) → the operation, which decides authorization (403/404). Every
// failure leaves through the error registry. Whatever the answer, a body still arriving
// is not read past the limit: the connection closes after the answer (lingeringClose.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import type { Credential } from '../domain/credentials.js';
import { ApiError } from '../errors.js';
import type { RateLimits } from '../limits/rateLimiter.js';
import type { FaultLog } from '../observability/faultLog.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { RequestSpan, Tracing } from '../observability/tracing.js';
import type { OperationHandler, OperationId, OperationResult } from '../operations/types.js';
import type { ServedContract } from '../servedContract.js';
import type { Authenticator } from './authenticate.js';
import { readJsonBody } from './body.js';
import { isBodyBroken } from './brokenBodies.js';
import type { ClientAddressOf } from './clientAddress.js';
import type { Cors } from './cors.js';
import { databaseDeadlineMs, withDeadline } from './deadline.js';
import { toApiError } from './faults.js';
import { bodyStillArriving, closeAfterAnswer } from './lingeringClose.js';
import { protocolViolation } from './protocolChecks.js';
import { requestIdOf } from './requestId.js';
import { type HeaderList, sendError, sendJson, sendJsonText } from './respond.js';
import type { OperationRoute, Router } from './router.js';
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
  /** Traces, where configured: each request runs inside its server span. */
  tracing?: Tracing;
}

export function createRequestHandler(deps: PipelineDeps) {
  const bodyLimits = { maxBytes: deps.config.bodyLimitBytes, maxDepth: deps.config.maxJsonDepth };
  const databaseDeadline = databaseDeadlineMs(deps.config);

  // Each step answers at once where it can: a cached credential, the in-memory budget and
  // hello need no promise, so such a request is served in one synchronous run; the steps
  // that wait (a database lookup, Redis, a body, a person operation) continue as promises.
  // The steps are made once; what a request's steps learn of it travels in its Exchange.
  const { tracing } = deps;
  return tracing
    ? (req: IncomingMessage, res: ServerResponse) => tracing.request(req, (span) => handleRequest(req, res, span))
    : (req: IncomingMessage, res: ServerResponse) => handleRequest(req, res, undefined);

  function handleRequest(req: IncomingMessage, res: ServerResponse, span: RequestSpan | undefined): void | Promise<void> {
    const exchange = new Exchange(req, res, span);
    deps.cors.addHeaders(req, exchange.headers);
    let served: void | Promise<void> | undefined;
    try {
      served = serve(exchange);
    } catch (error) {
      fail(exchange, error);
    }
    if (served instanceof Promise) {
      return served.catch((error: unknown) => fail(exchange, error)).finally(() => finish(deps, exchange));
    }
    finish(deps, exchange);
  }

  function fail(exchange: Exchange, error: unknown): void {
    failed(deps, exchange, error);
  }

  function serve(exchange: Exchange): void | Promise<void> {
    const answered = answerWithoutOperation(deps, exchange);
    if (answered) return answered.served;
    exchange.address = deps.clientAddress(exchange.req);
    // One clock reading for the budgets, the credential's expiry and its last use.
    exchange.now = Date.now();
    return step(deps.limits.checkAuthFailures(exchange.address, exchange.now), authenticate, exchange);
  }

  function authenticate(_: unknown, exchange: Exchange): void | Promise<void> {
    let credential: Credential | Promise<Credential>;
    try {
      credential = deps.authenticator.authenticate(exchange.req.headers.authorization, exchange.now);
    } catch (error) {
      return authenticationFailed(exchange, error);
    }
    if (credential instanceof Promise) credential = credential.catch((error: unknown) => authenticationFailed(exchange, error));
    return step(credential, spend, exchange);
  }

  /** A failed authentication counts against the address's budget (past it, rate_limited instead of the 401). */
  function authenticationFailed(exchange: Exchange, error: unknown): never | Promise<never> {
    if (!(error instanceof ApiError && error.code === 'invalid_api_key')) throw error;
    return step(deps.limits.recordAuthFailure(exchange.address), () => {
      throw error;
    });
  }

  /** The credential's budget, which adds its RateLimit-* headers to the ones every answer carries. */
  function spend(credential: Credential, exchange: Exchange): void | Promise<void> {
    exchange.credential = credential;
    return step(deps.limits.consume(credential.id, exchange.headers, exchange.now), readBody, exchange);
  }

  function readBody(_: unknown, exchange: Exchange): void | Promise<void> {
    const body = exchange.operationRoute!.hasBody ? readJsonBody(exchange.req, exchange.res, bodyLimits) : undefined;
    return step(body, run, exchange);
  }

  function run(body: unknown, exchange: Exchange): void | Promise<void> {
    const { operation, arrayQueryParams } = exchange.operationRoute!;
    const query = parseQuery(exchange.search, arrayQueryParams);
    const input = validateRequest(deps.api, operation, { path: exchange.params!, query, headers: exchange.req.headers, body });
    // Operations that wait on the database (a promise; hello answers at once) get a deadline.
    const pending = deps.operations[operation.operationId as OperationId]({
      params: input.path,
      query: input.query,
      body: input.body,
      credential: exchange.credential!,
    });
    return step(pending instanceof Promise ? withDeadline(pending, databaseDeadline) : pending, answer, exchange);
  }

  function answer(result: OperationResult, exchange: Exchange): void {
    if (isBodyBroken(exchange.req)) return fail(exchange, undefined);
    exchange.beforeAnswer();
    const { headers } = exchange;
    if (result.headers) for (const name in result.headers) headers.push(name, result.headers[name]!);
    if (result.json !== undefined) sendJsonText(exchange.res, result.status, result.json, headers);
    else sendJson(exchange.res, result.status, result.body, headers);
  }
}

/** The answer to a request that failed: the error registry's, or the connection dropped if the answer had begun. */
function failed(deps: PipelineDeps, exchange: Exchange, error: unknown): void {
  // A body the parser refused makes the whole request malformed, whatever else was wrong.
  const apiError = isBodyBroken(exchange.req) ? new ApiError('invalid_request') : toApiError(error);
  if (apiError.status >= 500) deps.faults.report(error, apiError, { requestId: exchange.requestId, route: exchange.route });
  if (apiError.code === 'rate_limited') deps.metrics.rateLimited(exchange.route);
  if (exchange.res.headersSent) exchange.res.destroy();
  else {
    exchange.beforeAnswer();
    sendError(exchange.res, apiError, exchange.headers);
  }
}

/** The request's metric and log line, once it is answered. */
function finish(deps: PipelineDeps, { req, res, route, started, requestId, span, template }: Exchange): void {
  span?.end(req.method, template, res.statusCode);
  const seconds = (performance.now() - started) / 1000;
  deps.metrics.observe(route, req.method ?? 'GET', res.statusCode, seconds);
  if (deps.logger.isLevelEnabled('info'))
    deps.logger.info({ requestId, method: req.method, route, status: res.statusCode, ms: Math.round(seconds * 10_000) / 10 }, 'request');
}

/**
 * Routes the request. What needs no operation (a protocol violation, OPTIONS, a plain
 * route such as /healthz) is answered here, and `served` says how; a request for an
 * operation is left routed in `exchange` (undefined is returned) for the steps after.
 */
function answerWithoutOperation(deps: PipelineDeps, exchange: Exchange): { served: void | Promise<void> } | undefined {
  const { req, res } = exchange;
  const violation = protocolViolation(req);
  if (violation) {
    exchange.route = 'malformed';
    exchange.beforeAnswer();
    sendError(res, violation.error, exchange.headers, violation.status);
    return { served: undefined };
  }
  const url = originForm(req.url ?? '/');
  const queryStart = url.indexOf('?');
  const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
  if (req.method === 'OPTIONS') {
    // `OPTIONS *` asks about the server as a whole (RFC 9110 §9.3.7).
    const methods = pathname === '*' ? ['GET', 'HEAD', 'POST'] : deps.router.methodsFor(pathname);
    if (!methods.length) throw new ApiError('not_found');
    exchange.route = 'options';
    exchange.beforeAnswer();
    deps.cors.answerOptions(req, res, methods, exchange.headers);
    return { served: undefined };
  }
  const found = deps.router.find(req.method ?? 'GET', pathname);
  if (!found) throw notFoundOrNotAllowed(deps.router.methodsFor(pathname));
  const { route } = found;
  if (route.kind === 'plain') {
    // The template, not the path: a label per requested /docs/... path would let any
    // caller grow the metrics registry without bound.
    exchange.route = exchange.template = route.path;
    exchange.beforeAnswer();
    for (let i = 0; i < exchange.headers.length; i += 2) res.setHeader(exchange.headers[i]!, exchange.headers[i + 1]!);
    return { served: route.handle(req, res) };
  }
  exchange.route = route.operation.operationId;
  // Drafts off: a code of its own, before authentication, so that a drafts client pointed at
  // the wrong server learns so whatever its token (docs/decisions/0025-local-development-backend.md).
  if (route.draft && !deps.config.draftsEnabled) throw new ApiError('draft_unavailable');
  exchange.template = route.operation.path;
  exchange.operationRoute = route;
  exchange.params = found.params;
  if (queryStart !== -1 && !route.ignoresQuery) exchange.search = url.slice(queryStart + 1);
  return undefined;
}

/** One request on its way through the pipeline: what its steps have learnt of it so far. */
class Exchange {
  readonly started = performance.now();
  readonly requestId: string;
  /** The metrics and log label: the operationId, a plain route's template, or what happened instead. */
  route = 'unmatched';
  /** The matched route's template (`/v1/persons/{personId}`), the trace span's name; none where nothing matched. */
  template: string | undefined = undefined;
  /**
   * The headers every answer to this request carries (the budget's, once spent), flat.
   * X-Request-Id goes out with the others in writeHead, not setHeader: a header set
   * beforehand sends every header through Node's slower merge-and-validate path.
   */
  readonly headers: HeaderList;
  // Known once the request is routed to an operation:
  operationRoute: OperationRoute | undefined = undefined;
  params: Record<string, string | undefined> | undefined = undefined;
  /** The query string without its `?`; empty where there is none or the operation ignores it. */
  search = '';
  address = '';
  /** The request's clock reading, in ms since the epoch. */
  now = 0;
  credential: Credential | undefined = undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly span: RequestSpan | undefined,
  ) {
    this.requestId = requestIdOf(req.headers['x-request-id']);
    this.headers = ['X-Request-Id', this.requestId];
  }

  /** Called right before an answer is written: a body still on its way is not read. */
  beforeAnswer(): void {
    if (bodyStillArriving(this.req)) closeAfterAnswer(this.req, this.res);
  }
}

/** A path no route serves is not found; a path served with other methods is 405 with them (RFC 9110 §15.5.6). */
function notFoundOrNotAllowed(methods: string[]): ApiError {
  if (!methods.length) return new ApiError('not_found');
  return new ApiError('method_not_allowed', undefined, { Allow: [...methods, 'OPTIONS'].join(', ') });
}

/**
 * `next(value, exchange)` at once for a value, after it settles for a promise: the
 * synchronous path stays synchronous, and makes no closure.
 */
function step<T, R>(value: T | Promise<T>, next: (value: T, exchange: Exchange) => R | Promise<R>, exchange?: Exchange): R | Promise<R> {
  return value instanceof Promise ? value.then((settled) => next(settled, exchange!)) : next(value, exchange!);
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
