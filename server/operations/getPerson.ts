// GET /v1/persons/{personId} (draft): the same query as search, on one person id, so
// the two operations cannot disagree about what a credential may see.
import type { operations } from '../../generated/types.full.js';
import type { Database } from '../db/database.js';
import { findPersons } from '../db/persons.js';
import { toPersonPage, type PersonQueryOptions } from '../domain/persons.js';
import { ApiError } from '../errors.js';
import { PERSONAL_DATA_HEADERS, type OperationHandler } from './types.js';

type GetPersonOk = operations['getPerson']['responses'][200]['content']['application/json'];

export function getPerson(db: Database, { inlineCompaniesMax }: PersonQueryOptions): OperationHandler {
  return async ({ params, query, credential }) => {
    const systems = query.externalIdSystems;
    const page = toPersonPage(
      await findPersons(db, {
        credentialId: credential.id,
        authorizedCompanies: credential.companyList,
        inlineCompaniesMax,
        personId: params.personId!,
        limit: 1,
        offset: 0,
        externalIdSystems: systems === undefined ? undefined : ([] as string[]).concat(systems),
      }),
    );
    const person = page.persons[0];
    // Unknown, or no employment in an authorized company: indistinguishable on purpose.
    if (!person) throw new ApiError('not_found');
    const response: GetPersonOk = { asOf: page.asOf.toISOString(), person };
    return { status: 200, body: response, headers: PERSONAL_DATA_HEADERS };
  };
}
