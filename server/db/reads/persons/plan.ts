// The person query's plan (plans.ts): from a search's filter and credential, how its one
// statement finds the page of people and their exact total. Decided here, without SQL:
//
// - the name route (nameRoutes.ts): no name, names checked on the rows, the name pieces
//   led by one name, or the dictionaries of names;
// - the authorization: the credential's companies inline (one, or an array), or a join
//   with its company set. The join serves credentials of many companies, because
//   PostgreSQL plans a literal array element by element, so planning a long one costs far
//   more than running the query; and it serves short name fragments over several
//   companies, whose reusable plan would otherwise descend the name index once per name
//   and company. A name fragment over nearly every company is the exception to both: its
//   name pieces are read in person order, each entry checked against the few companies the
//   credential lacks;
// - the conditions on a matching employment, in the order the filters are declared, the
//   names where the first of them is;
// - how the page and the total are cut: from the people rollups (a listing), in person
//   order, or by collecting the few people a name, phone or person id selects; and
//   where the page starts: after an offset, or right after a cursor's key;
// - what the answer shows (the credential's field groups, the external systems asked for).
import type { AuditInStatement } from '../../../domain/accessAudit.js';
import type { personFilters } from '../../../domain/employment.js';
import type { FilterRule } from '../../../domain/fields.js';
import type { FilterValues, PersonFilter } from '../../../domain/persons.js';
import { type Authorization, authorization, type Condition, type PlanPage, type PlanShows } from '../plans.js';
import { listingRollup, type Rollup } from './listing.js';
import { type NameRoute, nameRouter } from './nameRoutes.js';

export interface PersonsPlan extends PlanPage, PlanShows {
  kind: 'persons';
  route: NameRoute;
  /** How the page's employments are held to the credential's companies, and the matches too unless `matchesHeldBy` says otherwise. */
  authorization: Authorization;
  /** Where the matches are read: the employees, or the lead name's pieces standing in for them (server/db/derived). */
  source: 'employees' | 'last_name_pieces' | 'first_name_pieces';
  /** The matches' authorization: inline conditions, a join with the company set, or not being among the companies outside it. */
  matchesHeldBy: 'condition' | 'join' | 'companies outside';
  conditions: Condition[];
  paging: Paging;
  /** The access audit's entry the statement writes, with the person id it names if that matched nobody. */
  audit?: AuditInStatement & { personId?: string };
}

/** How the page and the exact total are cut from the matches. */
export type Paging =
  /** A listing: whole days from a people rollup; the bounds are the creation-day filters, by name. */
  | { kind: 'rollups'; rollup: Rollup; createdFrom: string; createdBefore: string }
  /** Name pieces in person order: matches come sorted; the companies outside the credential are found by its id. */
  | { kind: 'person order'; credentialId: string }
  /** Few people: all collected, sorted once, counted while the page is cut. */
  | { kind: 'collected' };

/** The person query's planner over these filters: the service's (domain/employment.ts), to which a test may add its own. */
export function personsPlanner<Rules extends typeof personFilters>(rules: Rules): (filter: PersonFilter<Rules>, audit?: AuditInStatement) => PersonsPlan {
  const routeOf = nameRouter(rules);
  const declared = Object.entries(rules) as [string, FilterRule][];
  const isName = (name: string) => name === 'lastName' || name === 'firstName';
  const namesAt = declared.findIndex(([name]) => isName(name));
  const beforeNames = declared.slice(0, namesAt);
  const afterNames = declared.slice(namesAt).filter(([name]) => !isName(name));
  const bound = (match: FilterRule['match']) => declared.find(([, rule]) => rule.rollups === 'creation day' && rule.match === match)?.[0];
  const bounds = { createdFrom: bound('atLeast')!, createdBefore: bound('below')! };

  return (filter, audit) => {
    const route = routeOf(filter);
    const inline = inlineAuthorization(route, filter);
    const inPersonOrder = route.route === 'pieces' && piecesInPersonOrder(filter);
    const rollup = listingRollup(filter, inline && filter.authorizedCompanies.length === 1, rules);
    const filters = (list: [string, FilterRule][]) => filterConditions(list, filter, rollup !== undefined);
    return {
      kind: 'persons',
      route,
      authorization: authorization(filter.authorizedCompanies, inline, filter.credentialId),
      source: route.route === 'pieces' ? `${route.lead}_name_pieces` : 'employees',
      matchesHeldBy: inPersonOrder ? 'companies outside' : inline ? 'condition' : 'join',
      conditions: [...filters(beforeNames), ...nameConditions(route, filter, rules, inPersonOrder), ...filters(afterNames)],
      paging: rollup
        ? { kind: 'rollups', rollup, ...bounds }
        : inPersonOrder
          ? { kind: 'person order', credentialId: filter.credentialId }
          : { kind: 'collected' },
      limit: filter.limit,
      offset: filter.offset,
      start: filter.start,
      fields: filter.fields,
      externalIdSystems: filter.externalIdSystems,
      audit: audit && { ...audit, personId: filter.personId },
      readPosition: filter.readPosition,
    };
  };
}

/**
 * Whether the companies go inline. A name search through the dictionaries over several
 * companies joins credential_companies whatever their number: its plan then does not
 * depend on the list. Through the name pieces, the list goes inline up to 50 times more
 * companies (10,000 by default): a descent per company is cheap, and cheaper than the
 * joined plan, which probes credential_companies once per entry read.
 */
function inlineAuthorization(route: NameRoute, { authorizedCompanies, inlineCompaniesMax }: PersonFilter): boolean {
  if (route.route === 'pieces') return authorizedCompanies.length <= inlineCompaniesMax * 50;
  return authorizedCompanies.length <= inlineCompaniesMax && !(route.route === 'dictionary' && authorizedCompanies.length > 1);
}

/**
 * Whether a name fragment's pieces are read in person order (the name pieces' by-person
 * index, *_name_pieces_by_person) rather than company by company: over several companies, with no
 * company filter, when the credential holds at least four in five of the companies (the
 * entries of the others are read and skipped; company by company, the credential's own
 * entries are sorted, which costs more per entry than reading one).
 */
function piecesInPersonOrder({ companiesOutside, companyId, authorizedCompanies }: PersonFilter): boolean {
  return companiesOutside !== undefined && companyId === undefined && authorizedCompanies.length > 1 && companiesOutside * 4 <= authorizedCompanies.length;
}

/**
 * The conditions of these filters, those set, in order. For a listing counted by the
 * rollups, a creation-day filter is passed set or not (null): the rollups read both bounds.
 */
function filterConditions(declared: readonly [string, FilterRule][], filter: PersonFilter, listing: boolean): Condition[] {
  const values: Readonly<Record<string, string | undefined>> = filter as FilterValues;
  return declared.flatMap(([name, rule]): Condition[] => {
    const value = values[name];
    if (listing && rule.rollups === 'creation day') return [{ kind: 'filter', name, rule, value: value ?? null }];
    return value === undefined ? [] : [{ kind: 'filter', name, rule, value }];
  });
}

/**
 * How the names are found and checked. Through the pieces, the lead's first three
 * characters pick its entries (a fragment of exactly three is its piece, and needs no
 * other check); through a dictionary, the lead's folded names; every name not found
 * wholly so is checked on the entry (or, on the route `row`, on the employments the other
 * conditions find).
 */
function nameConditions(route: NameRoute, filter: PersonFilter, rules: typeof personFilters, personOrder: boolean): Condition[] {
  const checked: Record<'last' | 'first', string | undefined> = { last: filter.lastName, first: filter.firstName };
  const leading: Condition[] = [];
  if (route.route === 'pieces') {
    const piece = [...route.fragment].slice(0, 3).join('');
    leading.push({ kind: 'piece', piece, personOrder });
    if (piece === route.fragment) checked[route.lead] = undefined;
  }
  if (route.route === 'dictionary') {
    leading.push({ kind: 'dictionary', lead: route.lead, fragment: checked[route.lead]!, rule: nameRule(rules, route.lead) });
    checked[route.lead] = undefined;
  }
  const checks = (['last', 'first'] as const).flatMap((side): Condition[] => {
    const value = checked[side];
    return value === undefined ? [] : [{ kind: 'filter', name: `${side}Name`, rule: nameRule(rules, side), value }];
  });
  return [...leading, ...checks];
}

const nameRule = (rules: typeof personFilters, side: 'last' | 'first'): FilterRule => (side === 'last' ? rules.lastName : rules.firstName);
