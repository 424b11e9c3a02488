// The one registry of error codes: every {"error": code} the service can send, its HTTP
// status and its meaning. The contract's ErrorCode enum and this table must agree (a
// test checks both ways); handlers throw an ApiError by code and never build a body.
import type { components } from '../generated/types.full.js';

export type ErrorCode = components['schemas']['ErrorCode'];

export interface ErrorDefinition {
  status: number;
  /** Other statuses the code is sent with, each where the contract declares it. */
  alsoSentWith?: readonly number[];
  meaning: string;
  /** False for faults of the service itself (logged at error level). */
  expected: boolean;
}

export const errorRegistry: Record<ErrorCode, ErrorDefinition> = {
  invalid_api_key: { status: 401, expected: true, meaning: 'Authorization header missing, not `Bearer <token>`, or an unknown or revoked token.' },
  rate_limited: { status: 429, expected: true, meaning: "The credential's request budget is spent." },
  invalid_company_id: { status: 400, expected: true, meaning: 'companyId is not a well-formed company id.' },
  invalid_person_id: { status: 400, expected: true, meaning: 'personId is not a UUID.' },
  invalid_request: {
    status: 400,
    // An Expect other than 100-continue (RFC 9110 §10.1.1): http/protocolChecks.ts.
    alsoSentWith: [417],
    expected: true,
    meaning:
      'A request HTTP does not allow (no Host, a header twice, a malformed body framing; 417 for an unmet Expect), or a malformed body or query: not JSON, unknown field, wrong type, out of range, bad date-time, unparseable phone.',
  },
  payload_too_large: { status: 413, expected: true, meaning: 'Request body over the configured limit.' },
  unsupported_media_type: { status: 415, expected: true, meaning: 'A request body that is not application/json.' },
  forbidden: {
    status: 403,
    expected: true,
    meaning: 'A well-formed companyId the credential is not authorized for, existing or not; or a request field reading a field group the credential lacks.',
  },
  not_found: { status: 404, expected: true, meaning: 'Unknown route, or an unknown or invisible person.' },
  // Not not_found: a drafts client pointed at the wrong server must not read "no such person" (docs/decisions/0025-local-development-backend.md).
  draft_unavailable: { status: 404, expected: true, meaning: 'A draft operation on a server where drafts are off (DRAFTS_ENABLED).' },
  // The change feed (docs/decisions/0022-change-feed.md): not invalid_request, the cursor was valid once.
  resync_required: {
    status: 410,
    expected: true,
    meaning: 'List changes: `after` names a place older than the changes retained (CHANGES_RETENTION); the consumer re-reads, then follows the feed again.',
  },
  method_not_allowed: { status: 405, expected: true, meaning: 'A known path with a method it does not serve; Allow lists the ones it does.' },
  internal_error: { status: 500, expected: false, meaning: 'Anything unexpected.' },
  service_unavailable: {
    status: 503,
    expected: false,
    meaning: 'The database is unreachable or did not answer in time, or the access audit could not record the response.',
  },
};

export interface ErrorDetail {
  /** JSON Pointer to the input: `/body/limit`, `/query/externalIdSystems/0`, `/body` for the body as a whole. */
  path: string;
  /** The field named, and what it must be, in words: `limit must be at most 100` (fieldProblem). */
  message: string;
  /** With forbidden: the field group the credential lacks for the field at `path`. */
  fieldGroup?: string;
}

/** The field a detail's path names: `limit`, `externalIdSystems[0]`, or the body or query as a whole. */
export function fieldName(path: string): string {
  const [, part, ...rest] = path.split('/').map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (!rest.length) return part === 'query' ? 'the query string' : part === 'path' ? 'the path' : 'the request body';
  return rest.map((segment, i) => (i === 0 ? segment : /^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`)).join('');
}

/** A detail saying that the field at `path` `predicate`: fieldProblem('/body/limit', 'must be at most 100'). */
export function fieldProblem(path: string, predicate: string): ErrorDetail {
  return { path, message: `${fieldName(path)} ${predicate}` };
}

/** A failure with a name. `details` is only ever sent with invalid_request, and with forbidden on the draft operations (a field group the credential lacks). */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly details?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
    this.name = 'ApiError';
    this.status = errorRegistry[code].status;
  }

  get body(): { error: ErrorCode; details?: ErrorDetail[] } {
    return this.details?.length ? { error: this.code, details: this.details } : { error: this.code };
  }
}

/**
 * Something the service needs to answer is failing but may come back (the access audit's
 * spool could not be written): answered 503 service_unavailable, retryable.
 */
export class ServiceUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ServiceUnavailable';
  }
}
