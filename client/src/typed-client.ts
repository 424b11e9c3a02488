// The client consumers hold: openapi-fetch's GET and POST, typed so that a misspelt key is a
// compile error, and answering every failure in the contract's shape.
//
// openapi-fetch infers each call's options as a type parameter, and TypeScript does not check
// an inferred object for excess keys: `POST('/v1/persons/search', { body: { lastname: 'x' } })`
// compiles there. Here the options' type follows from the path alone, so the object literal
// is checked against it like any other argument.
import type { Client, FetchOptions, FetchResponse, Middleware } from 'openapi-fetch';
import { errorBodyOf, type UnexpectedResponse } from './errors.js';

type Method = 'get' | 'post';

/** The paths of `Paths` that have `method`. */
export type PathsWith<Paths, M extends Method> = { [P in keyof Paths]: Paths[P] extends { [K in M]: object } ? P : never }[keyof Paths] & string;

/** What the operation behind `method` and `path` is. */
type OperationAt<Paths, P extends keyof Paths, M extends Method> = Paths[P] extends { [K in M]: infer Op extends Record<string | number, any> } ? Op : never;

/** A call's options: its parameters and body, and fetch's own (`signal`, `headers`, ...). Nothing else. */
export type InitOf<Operation> = Omit<FetchOptions<Operation>, 'parseAs'>;
/** Optional when the operation needs no parameter and no body. */
// biome-ignore lint/complexity/noBannedTypes: `{} extends T` asks "has T no required key?"
type InitArgs<Operation> = {} extends InitOf<Operation> ? [init?: InitOf<Operation>] : [init: InitOf<Operation>];

/** The operation's success body. */
// biome-ignore lint/complexity/noBannedTypes: `{}` is openapi-fetch's own type for "no request options"
export type DataOf<Operation extends Record<string | number, any>> = NonNullable<FetchResponse<Operation, {}, 'application/json'>['data']>;

/**
 * The `error` of a failed call to an operation: the failure bodies the contract declares for
 * it (a union that narrows on its `error` code), or `unexpected_response` for an answer that
 * is not the contract's (a proxy's HTML page, an empty body).
 */
export type ErrorOf<Operation extends Record<string | number, any>> =
  // biome-ignore lint/complexity/noBannedTypes: as above
  NonNullable<FetchResponse<Operation, {}, 'application/json'>['error']> | UnexpectedResponse;

/** What a call resolves to: its data, or its error; with the response either way. */
export type ResultOf<Operation extends Record<string | number, any>> =
  | { data: DataOf<Operation>; error?: never; response: Response }
  | { data?: never; error: ErrorOf<Operation>; response: Response };

type CallMethod<Paths, M extends Method> = <P extends PathsWith<Paths, M>>(
  path: P,
  ...init: InitArgs<OperationAt<Paths, P, M>>
) => Promise<ResultOf<OperationAt<Paths, P, M>>>;

/** Never a value: it makes clients of two contracts two types (their methods alone would not). */
declare const contract: unique symbol;

/** The typed client: one method per HTTP method the contract uses, and openapi-fetch's middleware hooks. */
export interface TypedClient<Paths> {
  readonly [contract]?: Paths;
  GET: CallMethod<Paths, 'get'>;
  POST: CallMethod<Paths, 'post'>;
  /** Adds openapi-fetch middleware (`onRequest`, `onResponse`, `onError`). */
  use(...middleware: Middleware[]): void;
  /** Removes middleware added with `use`. */
  eject(...middleware: Middleware[]): void;
}

/** Each operation's error codes, keyed `GET /v1/companies/{companyId}/hello`. */
export type CodesByOperation = Readonly<Record<string, readonly string[]>>;

export function typedClient<Paths extends {}>(client: Client<Paths, 'application/json'>, codes: CodesByOperation): TypedClient<Paths> {
  const method =
    (name: 'GET' | 'POST') =>
    async (path: string, init?: object): Promise<{ data?: unknown; error?: unknown; response: Response }> => {
      const { data, error, response } = await (
        client[name] as (path: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>
      )(path, init);
      if (response.ok) return { data, response };
      return { error: errorBodyOf(error, codes[`${name} ${path}`] ?? []), response };
    };
  return { GET: method('GET'), POST: method('POST'), use: client.use, eject: client.eject } as unknown as TypedClient<Paths>;
}
