// GET /v1/persons/{personId} (draft): the person query of search on one person id, so the
// two operations cannot disagree about what a credential may see; read and recorded in the
// access audit (a miss too: asking for someone is an access attempt) by one call.
import { withheldGroups } from '../domain/fieldGroups.js';
import { type PersonQueryOptions, searchScope } from '../domain/persons.js';
import type { LookupReads } from '../domain/reads.js';
import { ApiError } from '../errors.js';
import { decidedOnCurrent } from './confirmed.js';
import { getPersonResponseJson } from './responses.js';
import { type OperationHandler, PERSONAL_DATA_HEADERS, readerOf } from './types.js';

export function getPerson(reads: LookupReads, options: PersonQueryOptions): OperationHandler {
  return async ({ params, query, ...input }) => {
    const personId = params.personId!;
    const systems = query.externalIdSystems;
    const externalIdSystems = systems === undefined ? undefined : ([] as string[]).concat(systems);
    const { credential, decided: scope } = await decidedOnCurrent(input.credential, (c) =>
      searchScope('persons', { limit: 1, offset: 0, externalIdSystems }, { personId }, c, options, '/query'),
    );
    const {
      asOf,
      items: [person],
    } = await reads.getPerson({ ...scope, personId }, readerOf(credential));
    // Unknown, or no employment in an authorized company: indistinguishable on purpose.
    if (!person) throw new ApiError('not_found');
    return { status: 200, body: undefined, json: getPersonResponseJson(asOf, person.json, withheldGroups(credential.fields)), headers: PERSONAL_DATA_HEADERS };
  };
}
