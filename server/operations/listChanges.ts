// GET /v1/companies/{companyId}/changes (draft): a page of the company's change feed
// (docs/decisions/0022-change-feed.md). Authorized as hello is (the company in the
// credential's set, the primary asked again where a replica's copy may be behind), so it
// answers the same 403 for a company outside the set, existing or not. Ids and kinds
// only: nothing here is a personal value, so it is not recorded in the access audit.
import type { components } from '../../generated/types.full.js';
import { decodeChangeCursor, encodeChangeCursor } from '../domain/changeCursor.js';
import type { ChangeFeed, ChangePage } from '../domain/changes.js';
import { ApiError, fieldProblem } from '../errors.js';
import { decidedOnCurrent } from './confirmed.js';
import type { OperationHandler } from './types.js';

type ChangesResponse = components['schemas']['ChangesResponse'];

export const CHANGES_DEFAULT_LIMIT = 100;
const NO_STORE = { 'Cache-Control': 'no-store' };

export function listChanges(feed: ChangeFeed): OperationHandler {
  return async ({ params, query, credential }) => {
    const companyId = params.companyId!;
    const after = query.after === undefined ? undefined : startAfter(String(query.after));
    const limit = query.limit === undefined ? CHANGES_DEFAULT_LIMIT : Number(query.limit);
    await decidedOnCurrent(credential, (c) => {
      if (!c.companies.has(companyId)) throw new ApiError('forbidden');
    });
    const read = await feed.read(companyId, after, limit);
    if ('pruned' in read) throw new ApiError('resync_required');
    return { status: 200, body: changesResponse(companyId, read.page), headers: NO_STORE };
  };
}

/** The position a well-formed `after` names; invalid_request naming it when this service did not make it. */
function startAfter(cursor: string): bigint {
  const position = decodeChangeCursor(cursor);
  if (position === undefined)
    throw new ApiError('invalid_request', [fieldProblem('/query/after', "must be a change's position or a page's next from this feed, sent back as it came")]);
  return position;
}

function changesResponse(companyId: string, page: ChangePage): ChangesResponse {
  return {
    asOf: page.asOf,
    changes: page.changes.map((c) => ({
      position: encodeChangeCursor(c.position),
      kind: c.kind,
      companyId,
      employeeId: c.employeeId,
      personId: c.personId,
      changedAt: c.changedAt,
    })),
    next: encodeChangeCursor(page.next),
  };
}
