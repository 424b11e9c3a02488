// GET /v1/persons/{personId} (draft): the person query of search on one person id, so the
// two operations cannot disagree about what a credential may see. Where the audit entry
// is not written by the query itself, the lookups of one event-loop turn share a statement
// (exactLookups.ts; the same answers, tests/persons/personsByKey.test.ts).
import type { AccessAudit } from '../domain/accessAudit.js';
import type { PersonQueries } from '../domain/personQueries.js';
import type { PersonPage, PersonQueryOptions } from '../domain/persons.js';
import { ApiError } from '../errors.js';
import type { PersonLookups } from './exactLookups.js';
import { getPersonResponseJson } from './personResponses.js';
import { type OperationHandler, type OperationInput, PERSONAL_DATA_HEADERS } from './types.js';

export function getPerson(
  persons: PersonQueries,
  audit: AccessAudit,
  lookups: PersonLookups | undefined,
  { inlineCompaniesMax }: PersonQueryOptions,
): OperationHandler {
  /** A page of at most one: alone in its statement (which writes the audit entry), or coalesced. */
  const lookUp = ({ params, query, credential }: OperationInput): Promise<PersonPage> => {
    const personId = params.personId!;
    const systems = query.externalIdSystems;
    const externalIdSystems = systems === undefined ? undefined : ([] as string[]).concat(systems);
    const filter = {
      credentialId: credential.companySetId,
      authorizedCompanies: credential.companyList,
      inlineCompaniesMax,
      externalIdSystems,
      readPosition: credential.readPosition,
    };
    if (lookups) return lookups.lookUp(filter, 'personId', { value: personId, limit: 1, offset: 0 });
    return persons.findPage(
      { ...filter, personId, limit: 1, offset: 0 },
      audit.inStatement && { ...audit.inStatement, credentialId: credential.id, operation: 'getPerson' },
    );
  };

  return async (input) => {
    const personId = input.params.personId!;
    // The access is recorded in the audit before anything is answered (by the query
    // itself, or in the spool), a 404 too: asking for someone is an access attempt.
    const {
      asOf,
      persons: [person],
    } = await lookUp(input);
    await audit.spool?.append({
      at: asOf,
      credentialId: input.credential.id,
      operation: 'getPerson',
      personIds: person ? [person.id] : [],
      notFoundPersonId: person ? undefined : personId,
    });
    // Unknown, or no employment in an authorized company: indistinguishable on purpose.
    if (!person) throw new ApiError('not_found');
    return { status: 200, body: undefined, json: getPersonResponseJson(asOf, person.json), headers: PERSONAL_DATA_HEADERS };
  };
}
