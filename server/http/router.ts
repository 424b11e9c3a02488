// Routing: every contract operation is registered once, at start, in find-my-way (a
// radix-tree router), so a request costs one tree lookup. openapi-backend's own
// matcher would rebuild its operation list and regexes on every request.
// HEAD is served wherever GET is (RFC 9110 §9.3.2; load balancers probe with it): the same
// route and headers, and node leaves the body out.

import type { IncomingMessage, ServerResponse } from 'node:http';
import FindMyWay from 'find-my-way';
import type { Operation, ServedContract } from '../servedContract.js';

export type PlainHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export type Route = OperationRoute | { kind: 'plain'; handle: PlainHandler /** The registered template, e.g. `/docs/*`. */; path: string };

export interface OperationRoute {
  kind: 'operation';
  operation: Operation;
  draft: boolean;
  hasBody: boolean;
  arrayQueryParams: Set<string>;
  /**
   * Takes no input but its path (hello): the query string is ignored, as caches and
   * proxies add to it (`?_=1700000000`). Operations with a body or query parameters
   * reject unknown query parameters instead, so a filter sent in the wrong place
   * cannot silently widen a search.
   */
  ignoresQuery: boolean;
}

export interface Router {
  find(method: string, path: string): { route: Route; params: Record<string, string | undefined> } | undefined;
  /**
   * The methods a path answers (OPTIONS' and a 405's Allow), empty for an unknown path. A
   * draft's path answers its methods where drafts are off too (with draft_unavailable), so
   * that a browser's preflight passes and its page can read that code.
   */
  methodsFor(path: string): string[];
}

const METHODS = ['GET', 'HEAD', 'POST'] as const;

/** `/v1/persons/{personId}` → `/v1/persons/:personId` */
const toRadixPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

export function buildRouter(api: ServedContract, plain: Record<string, PlainHandler>): Router {
  // maxParamLength: a longer parameter would miss the route (404, which hello does not
  // declare); the request line is already bounded by node's 16 KiB header limit, and an
  // over-long id is answered 400 by validation like any other malformed one.
  const tree = FindMyWay({ ignoreTrailingSlash: false, caseSensitive: true, maxParamLength: 16 * 1024 });
  for (const operation of api.operations) {
    const arrayQueryParams = new Set((operation.parameters ?? []).filter((p) => p.in === 'query' && p.schema?.type === 'array').map((p) => p.name));
    const hasBody = Boolean(operation.requestBody);
    const route: Route = {
      kind: 'operation',
      operation,
      draft: operation.draft,
      hasBody,
      arrayQueryParams,
      ignoresQuery: !hasBody && !(operation.parameters ?? []).some((p) => p.in === 'query'),
    };
    tree.on(operation.method.toUpperCase() as any, toRadixPath(operation.path), () => {}, route);
  }
  for (const [path, handle] of Object.entries(plain)) {
    tree.on('GET', path, () => {}, { kind: 'plain', handle, path } satisfies Route);
  }
  const find: Router['find'] = (method, path) => {
    const as = method === 'HEAD' ? 'GET' : method;
    const found = tree.find(as as any, path) ?? (path.includes('%') ? tree.find(as as any, escapeUndecodable(path)) : null);
    return found ? { route: found.store as Route, params: found.params } : undefined;
  };
  const methodsFor: Router['methodsFor'] = (path) => METHODS.filter((method) => find(method, path) !== undefined);
  return { find, methodsFor };
}

/**
 * find-my-way finds no route when a segment's percent-encoding does not decode
 * (`/v1/companies/%zz/hello`). Such a segment is taken literally instead, so the route is
 * found and the parameter fails validation: 400 invalid_company_id, as for any other
 * malformed id, rather than a 404 the operation does not declare.
 */
function escapeUndecodable(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      try {
        decodeURIComponent(segment);
        return segment;
      } catch {
        return encodeURIComponent(segment);
      }
    })
    .join('/');
}
