// How a search's name fragments find their employments, and what each way reads. The name
// pieces (server/db/derived) stand in for employees and carry only the columns below; a
// filter reads one column (domain/fields.ts FilterRule), so a search that sets a filter
// the pieces lack is never sent to them: it reads employees instead, where every column
// is, rather than failing in SQL.
import type { EmploymentColumn } from '../../../domain/employment.js';
import type { FilterRules, FilterValues, PersonFilter } from '../../../domain/persons.js';

/**
 * The columns last_name_pieces and first_name_pieces hold besides `piece` (see the
 * migrations; tests/persons/nameRoutes.test.ts holds these lists to the tables). The
 * first-name pieces hold no last name, so that a changed last name leaves them alone: they
 * lead only a search that gives no last name.
 */
export const namePiecesColumns = {
  last: ['company_id', 'person_created_at', 'person_id', 'last_name_folded', 'first_name_folded'],
  first: ['company_id', 'person_created_at', 'person_id', 'first_name_folded'],
} as const satisfies Record<'last' | 'first', readonly EmploymentColumn[]>;

export type NameRoute =
  | { route: 'none' | 'row' }
  | { route: 'dictionary'; lead: 'last' | 'first' }
  | { route: 'pieces'; lead: 'last' | 'first'; fragment: string };

/**
 * How the name fragments find their employments, under these filters: none given; checked
 * on the rows of employees the other conditions find (always so with a lookup key, a phone
 * or a person id, which picks out a handful; and with a filter the name pieces lack);
 * through the name pieces (server/db/derived), led by a last name of three or more
 * characters, else by such a first name when no last name is given; or through the
 * dictionaries of names: when both are shorter (the last name leads), and when a first
 * name of three or more leads a shorter last name, which the first-name pieces cannot
 * check.
 */
export function nameRouter(rules: FilterRules): (filter: PersonFilter) => NameRoute {
  const lookups = Object.keys(rules).filter((name) => rules[name]!.lookup);
  // The filters other than the names whose column a lead's pieces lack.
  const piecesLack = (lead: 'last' | 'first') =>
    Object.keys(rules).filter(
      (name) => name !== 'lastName' && name !== 'firstName' && !(namePiecesColumns[lead] as readonly string[]).includes(rules[name]!.column),
    );
  const lacking = { last: piecesLack('last'), first: piecesLack('first') };
  const long = (fragment: string | undefined) => fragment !== undefined && [...fragment].length >= 3;
  return (filter) => {
    if (filter.lastName === undefined && filter.firstName === undefined) return { route: 'none' };
    const values: Readonly<Record<string, unknown>> = filter as FilterValues;
    if (lookups.some((name) => values[name] !== undefined)) return { route: 'row' };
    const pieces = (lead: 'last' | 'first', fragment: string): NameRoute =>
      lacking[lead].some((name) => values[name] !== undefined) ? { route: 'row' } : { route: 'pieces', lead, fragment };
    if (long(filter.lastName)) return pieces('last', filter.lastName!);
    if (long(filter.firstName)) return filter.lastName === undefined ? pieces('first', filter.firstName!) : { route: 'dictionary', lead: 'first' };
    return { route: 'dictionary', lead: filter.lastName !== undefined ? 'last' : 'first' };
  };
}
