// Each search filter's rules, declared once: the condition it puts on a matching
// employment, and whether the people rollups (listingFromRollups.ts) can count the people
// it selects. A filter the rollups cannot count makes the query count its matches one by
// one; so a new filter is added here, and the compiler refuses a filter without its rules.

import type { FilterValues } from '../domain/persons.js';

export interface FilterRule<Value> {
  /**
   * The condition on a matching employment `e`, given a placeholder for the value; absent
   * where the query finds the matches another way (names: name pieces or dictionaries).
   */
  where?: (placeholder: string) => string;
  /** Whether the rollups can count a listing under this filter, and how: they are kept per company (and credential) and UTC day of person creation. */
  rollups: 'company' | 'creation day' | 'cannot';
  /** Never used; ties the rule to its value type. */
  readonly value?: Value;
}

export const personFilters: { [K in keyof FilterValues]-?: FilterRule<NonNullable<FilterValues[K]>> } = {
  companyId: { where: (p) => `e.company_id = ${p}`, rollups: 'company' },
  firstName: { rollups: 'cannot' },
  lastName: { rollups: 'cannot' },
  phone: { where: (p) => `e.phone = ${p}`, rollups: 'cannot' },
  personId: { where: (p) => `e.person_id = ${p}::uuid`, rollups: 'cannot' },
  // Whole days from the rollups, the partial first and last day counted exactly.
  createdFrom: { where: (p) => `e.person_created_at >= ${p}::timestamptz`, rollups: 'creation day' },
  createdBefore: { where: (p) => `e.person_created_at < ${p}::timestamptz`, rollups: 'creation day' },
};

/** Whether the rollups can count every filter this search sets. */
export function rollupsCanCount(filter: FilterValues): boolean {
  return (Object.keys(personFilters) as (keyof FilterValues)[]).every((key) => filter[key] === undefined || personFilters[key].rollups !== 'cannot');
}
