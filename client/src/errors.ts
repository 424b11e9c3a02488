// What a failed call is, in one shape: the service's `{ error, details? }` body when it is the
// contract's, or `unexpected_response` for anything else that answered (an HTML 502 from a
// proxy, an empty 504, a JSON body that is not the service's). The non-throwing form returns
// it as `error`; `unwrap` and the query layer throw it as a LookupApiError.
import { retryAfterMs } from './retry-after.js';

/** The code of an answer that is not the contract's: a proxy's page, an empty body, JSON of another shape. */
export type UnexpectedCode = 'unexpected_response';

/** The `error` of a call whose answer is not the contract's. `body` is what came: its text, or JSON of another shape. */
export interface UnexpectedResponse {
  error: UnexpectedCode;
  body: unknown;
}

/** One thing that was wrong with a request: where (a JSON Pointer such as `/body/limit`) and what, in words. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** A body the service sends on failure: a code, and for some codes `details`. */
export interface ErrorBody {
  error: string;
  details?: readonly ErrorDetail[];
}

// What a LookupApiError's fields hold for a known body; for one not known (`instanceof`
// narrows to LookupApiError<unknown>), what every body of the contract has.
type CodeOf<Body> = unknown extends Body ? string : Body extends { error: infer Code } ? Code : never;
type DetailsOf<Body> = unknown extends Body ? readonly ErrorDetail[] : Body extends { details?: infer D } ? NonNullable<D> : never;

/**
 * A failed call, thrown by `unwrap` and by the query layer. `code` narrows to the codes the
 * operation can answer (plus `unexpected_response`); `details` says which inputs were wrong.
 */
export class LookupApiError<Body = ErrorBody | UnexpectedResponse> extends Error {
  override readonly name = 'LookupApiError';
  /** The HTTP status. */
  readonly status: number;
  /** The service's error code, or `unexpected_response` for an answer that is not the contract's. */
  readonly code: CodeOf<Body>;
  /** Entries saying what was wrong (`invalid_request`: `{ path, message }`), when the service sent them. */
  readonly details: DetailsOf<Body> | undefined;
  /** Seconds the service asked to wait before trying again (`Retry-After`), when it said. */
  readonly retryAfter: number | undefined;
  /** `X-Request-Id`: quote it when you report a problem; it finds the request in the service's logs. */
  readonly requestId: string | undefined;
  /** The body as received (for `unexpected_response`, its text or JSON). */
  readonly body: Body;
  /** The HTTP response (its body already read). */
  readonly response: Response;

  constructor(body: Body, response: Response) {
    const requestId = response.headers.get('X-Request-Id') ?? undefined;
    super(describe(body as ErrorBody, response.status, requestId));
    this.status = response.status;
    this.code = (body as ErrorBody).error as CodeOf<Body>;
    this.details = (body as { details?: DetailsOf<Body> }).details;
    const wait = retryAfterMs(response.headers.get('Retry-After'));
    this.retryAfter = wait === undefined ? undefined : Math.ceil(wait / 1000);
    this.requestId = requestId;
    this.body = body;
    this.response = response;
  }
}

/** `403 forbidden (request 6f1c…)`, with what was wrong for invalid_request. */
function describe(body: ErrorBody | UnexpectedResponse, status: number, requestId: string | undefined): string {
  const details = (body as ErrorBody).details?.map((d) => (d && typeof d === 'object' ? Object.values(d).join(' ') : String(d))).join('; ');
  return `${status} ${body.error}${details ? `: ${details}` : ''}${requestId ? ` (request ${requestId})` : ''}`;
}

/**
 * The failure body of a call as the contract promises it: the service's own when it is an
 * object whose `error` is one of `codes` (the operation's; any code when not given),
 * otherwise `unexpected_response` holding what came. `raw` is what openapi-fetch read:
 * parsed JSON, text, or undefined for an empty body.
 */
export function errorBodyOf(raw: unknown, codes?: readonly string[]): ErrorBody | UnexpectedResponse {
  const body = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as { error?: unknown; details?: unknown }) : {};
  const known = typeof body.error === 'string' && (!codes || codes.includes(body.error));
  if (known && (body.details === undefined || isDetails(body.details))) return raw as ErrorBody;
  return { error: 'unexpected_response', body: raw ?? '' };
}

function isDetails(value: unknown): value is ErrorDetail[] {
  return Array.isArray(value) && value.every((d) => typeof d?.path === 'string' && typeof d?.message === 'string');
}
