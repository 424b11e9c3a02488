// Many exact lookups in one statement, beside the person query (persons/): the Get person
// lookups and the searches by a phone or a person id alone that one credential's company
// set makes in the same event-loop turn share a round trip, a plan and a driver parse
// (lookups.ts). Each ask's answer is what the person query gives for that key alone with
// the ask's page: the exact total, and the page's people with every authorized employment
// and its source records. Its SQL is sql.ts; tests/persons/personsByKey.test.ts holds the
// two kinds to the same answers.
import { personFilters } from '../../../domain/employment.js';
import type { FilterRule } from '../../../domain/fields.js';
import type { SearchScope } from '../../../domain/persons.js';
import type { LookupKey } from '../lookups.js';
import { type Authorization, authorization, type PageAsk, type PlanShows } from '../plans.js';

export interface PersonsByKeyPlan extends PlanShows {
  kind: 'persons by key';
  authorization: Authorization;
  key: LookupKey;
  rule: FilterRule;
  asks: readonly PageAsk[];
}

/** The plan of these lookups in this scope: the same forms of authorization as the person query for a phone or a person id. */
export function personsByKeyPlan(scope: SearchScope, key: LookupKey, asks: readonly PageAsk[]): PersonsByKeyPlan {
  const inline = scope.authorizedCompanies.length <= scope.inlineCompaniesMax;
  return {
    kind: 'persons by key',
    authorization: authorization(scope.authorizedCompanies, inline, scope.credentialId),
    key,
    rule: personFilters[key],
    asks,
    fields: scope.fields,
    externalIdSystems: scope.externalIdSystems,
    readPosition: scope.readPosition,
  };
}
