// Routing: every contract operation is registered once, at start, in find-my-way (a
// radix-tree router), so a request costs one tree lookup. openapi-backend's own
// matcher would rebuild its operation list and regexes on every request.
import FindMyWay from 'find-my-way';
import type { Contract, Operation } from '../contract.js';
import type { IncomingMessage, ServerResponse } from 'node:http';

export type PlainHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export type Route =
  | { kind: 'operation'; operation: Operation; draft: boolean; hasBody: boolean; arrayQueryParams: Set<string> }
  | { kind: 'plain'; handle: PlainHandler; /** The registered template, e.g. `/docs/*`. */ path: string };

export interface Router {
  find(method: string, path: string): { route: Route; params: Record<string, string | undefined> } | undefined;
}

/** `/v1/persons/{personId}` → `/v1/persons/:personId` */
const toRadixPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

export function buildRouter(api: Contract, plain: Record<string, PlainHandler>): Router {
  const tree = FindMyWay({ ignoreTrailingSlash: false, caseSensitive: true, maxParamLength: 500 });
  for (const operation of api.router.getOperations()) {
    const arrayQueryParams = new Set(
      (operation.parameters ?? [])
        .filter((p: any) => p.in === 'query' && p.schema?.type === 'array')
        .map((p: any) => p.name as string),
    );
    const route: Route = {
      kind: 'operation',
      operation,
      draft: (operation as any)['x-draft'] === true,
      hasBody: Boolean(operation.requestBody),
      arrayQueryParams,
    };
    tree.on(operation.method.toUpperCase() as any, toRadixPath(operation.path), () => {}, route);
  }
  for (const [path, handle] of Object.entries(plain)) {
    tree.on('GET', path, () => {}, { kind: 'plain', handle, path } satisfies Route);
  }
  return {
    find(method, path) {
      const found = tree.find(method as any, path);
      return found ? { route: found.store as Route, params: found.params } : undefined;
    },
  };
}
