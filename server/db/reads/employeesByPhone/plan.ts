// Many searches of unlinked employments by a phone alone in one statement (lookups.ts),
// each answered as the employees query (employees/) answers it alone. Its SQL is sql.ts;
// tests/employees/byPhone.test.ts holds the two kinds to the same answers.
import type { SearchScope } from '../../../domain/persons.js';
import { phoneAuthorization } from '../employees/plan.js';
import type { Authorization, PageAsk, PlanShows } from '../plans.js';

export interface EmployeesByPhonePlan extends PlanShows {
  kind: 'employees by phone';
  authorization: Authorization;
  asks: readonly PageAsk[];
}

/** How the asks of one credential's phone searches are read together. */
export function employeesByPhonePlan(scope: SearchScope, asks: readonly PageAsk[]): EmployeesByPhonePlan {
  return {
    kind: 'employees by phone',
    authorization: phoneAuthorization(scope),
    asks,
    fields: scope.fields,
    externalIdSystems: scope.externalIdSystems,
    readPosition: scope.readPosition,
  };
}
