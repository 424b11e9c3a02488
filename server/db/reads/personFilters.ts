// Each search filter's condition on a matching employment, from its rule in the
// employment's declaration (domain/employment.ts personFilters; the rule's words are
// domain/fields.ts FilterRule), and whether the people rollups can count what the set
// filters select.
import { personFilters } from '../../domain/employment.js';
import type { FilterRule } from '../../domain/fields.js';
import type { FilterRules, FilterValues } from '../../domain/persons.js';

const operators = { equals: '=', atLeast: '>=', below: '<', contains: 'LIKE' } as const;

/** The condition `rule` puts on a matching employment `e`, given the placeholder of its parameter (filterParameter). */
export function filterCondition(rule: FilterRule, placeholder: string): string {
  return `e.${rule.column} ${operators[rule.match]} ${placeholder}${rule.cast ? `::${rule.cast}` : ''}`;
}

/** The parameter a filter's value is passed as: for `contains`, a LIKE pattern of it anywhere. */
export function filterParameter(rule: FilterRule, value: string): string {
  return rule.match === 'contains' ? containing(value) : value;
}

/** A LIKE pattern matching `fragment` anywhere, with `%`, `_` and `\` taken literally. */
const containing = (fragment: string) => `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Whether the rollups can count every filter this search sets (of `rules`: the service's, or a test's). */
export function rollupsCanCount(filter: FilterValues, rules: FilterRules = personFilters): boolean {
  const values = filter as Record<string, string | undefined>;
  return Object.keys(rules).every((name) => values[name] === undefined || rules[name]!.rollups !== 'cannot');
}
