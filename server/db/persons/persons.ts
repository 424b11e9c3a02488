// The one query behind both person operations. A single SQL statement reads the page of
// people, their exact total and every authorized employment with its source records,
// so the whole response is one snapshot (a statement sees one snapshot) taken at
// statement_timestamp(), which becomes `asOf`; and a page costs one round trip.
//
// Authorization takes one of two forms: the credential's company ids as an array
// parameter, or a join with credential_companies. The join serves credentials of many
// companies, because PostgreSQL plans a literal array element by element, so planning a
// long one costs far more than running the query; and it serves short name fragments
// over several companies, whose reusable plan would otherwise descend the name index
// once per name and company. The array serves the rest: listings read each
// company's creation-ordered index, a name fragment one range of the name pieces per
// company, person-id and phone lookups check a few rows. A name fragment over nearly every
// company is the exception to both: its name pieces are read in person order, each entry
// checked against the few companies the credential lacks.

import type { AuditInStatement } from '../../domain/accessAudit.js';
import { personFilters } from '../../domain/employment.js';
import type { FilterRule } from '../../domain/fields.js';
import type { FilterValues, PersonFilter, PersonPage } from '../../domain/persons.js';
import type { Queryable } from '../engines/database.js';
import { listingRollup, pageAndTotalFromRollups } from './listingFromRollups.js';
import { nameRouter } from './nameRoutes.js';
import { filterCondition, filterParameter } from './personFilters.js';
import { AS_OF, employeeJson, iso } from './personJson.js';

/**
 * One row per person on the page, in response order (or, for an empty page, one row with
 * no person): the page's instant and exact total, and the person as the contract's
 * Person object in JSON text (personJson.ts), ready to be sent as it is.
 */
export interface PersonRow {
  /** asOf, as the contract writes it. */
  as_of: string;
  total: string;
  person_id: string | null;
  person: string | null;
}

/** The page findPersons' rows stand for. */
export function pageOf(rows: readonly PersonRow[]): PersonPage {
  return {
    asOf: rows[0]!.as_of,
    total: Number(rows[0]!.total),
    persons: rows.flatMap((row) => (row.person === null ? [] : [{ id: row.person_id!, json: row.person }])),
  };
}

/**
 * The page of people `filter` selects. With `audit`, the access audit's entry of this
 * response (access_audit) is written by the query's own statement: the entry commits with
 * the read or neither happens, and the caller hears of the rows only once it is committed
 * (server/access/auditWriter.ts).
 */
export const findPersons = personQuery(personFilters);

/**
 * The person query over these filters: the service's (domain/employment.ts), to which a
 * test may add filters of its own. Each set filter puts its condition on the matching
 * employments, in the order the filters are declared; the names are found through their
 * route (nameRoutes.ts) where the first of them is declared.
 */
export function personQuery<Rules extends typeof personFilters>(
  rules: Rules,
): (db: Queryable, filter: PersonFilter<Rules>, audit?: AuditInStatement) => Promise<PersonRow[]> {
  const routeOf = nameRouter(rules);
  // The filters declared before the names, and after them.
  const declared = Object.entries(rules) as [string, FilterRule][];
  const namesAt = declared.findIndex(([name]) => name === 'lastName' || name === 'firstName');
  const beforeNames = declared.slice(0, namesAt);
  const afterNames = declared.slice(namesAt).filter(([name]) => name !== 'lastName' && name !== 'firstName');
  const nameRules: Record<'last' | 'first', FilterRule> = { last: rules.lastName, first: rules.firstName };
  return findPage;

  async function findPage(db: Queryable, filter: PersonFilter, audit?: AuditInStatement): Promise<PersonRow[]> {
    const companies = filter.authorizedCompanies;
    const names = routeOf(filter);
    // A name search through the dictionaries over several companies joins
    // credential_companies whatever their number: its plan then does not depend on the list
    // (see `prepared` below). Through the name pieces, the list goes inline up to 50 times
    // more companies (10,000 by default): a descent per company is cheap, and cheaper than
    // the joined plan, which probes credential_companies once per entry read (a common
    // fragment over thousands of companies reads many entries).
    const inline =
      names.route === 'pieces'
        ? companies.length <= filter.inlineCompaniesMax * 50
        : companies.length <= filter.inlineCompaniesMax && !(names.route === 'dictionary' && companies.length > 1);
    // One company as a plain equality (not `= ANY`) lets the planner use the index order.
    const single = inline && companies.length === 1;
    const params: unknown[] = [single ? companies[0] : inline ? companies : filter.credentialId];
    const param = (value: unknown) => `$${params.push(value)}`;
    const authorized = single ? 'e.company_id = $1::text' : 'e.company_id = ANY($1::text[])';
    const where = ['e.person_id IS NOT NULL'];
    // A name fragment over nearly every company reads its name pieces in person order, each
    // entry checked against the companies outside the credential (found again here, in the
    // statement's own snapshot), instead of company by company. NOT IN, which PostgreSQL
    // leaves a filter (a hash of those companies, probed per entry), keeps the entries'
    // order; a join would hash them and lose it.
    const inPersonOrder = names.route === 'pieces' && piecesInPersonOrder(filter);
    const outside = inPersonOrder
      ? `SELECT c.id FROM companies c WHERE NOT EXISTS (SELECT FROM credential_companies cc WHERE cc.credential_id = ${param(filter.credentialId)}::uuid AND cc.company_id = c.id)`
      : undefined;
    if (inPersonOrder) where.push('e.company_id NOT IN (SELECT id FROM outside)');
    else if (inline) where.push(authorized);
    // Where the matching employments are found: the name pieces (server/db/derived) stand in
    // for employees, carrying every column the search reads (nameRoutes.ts takes them only then).
    const source = names.route === 'pieces' ? `${names.lead}_name_pieces e` : 'employees e';
    const authorizedEmployees =
      inline || inPersonOrder ? source : `${source} JOIN credential_companies cc ON cc.credential_id = $1::uuid AND cc.company_id = e.company_id`;
    // A page person's authorized employments.
    const pageEmployees = inline
      ? `employees e WHERE e.person_id = page.id AND ${authorized}`
      : 'employees e JOIN credential_companies ecc ON ecc.credential_id = $1::uuid AND ecc.company_id = e.company_id WHERE e.person_id = page.id';
    const rollup = listingRollup(filter, single, rules);
    // The rollup query reads both bounds of the creation day, set or not; the others only those set.
    const bounds: Bounds | undefined = rollup ? {} : undefined;
    filterConditions(beforeNames, filter, where, param, bounds);
    // The names not found through a dictionary, or not wholly by their piece, are checked on
    // the entry (or, on the route `row`, on the employments the other conditions find).
    const checked: Record<'last' | 'first', string | undefined> = { last: filter.lastName, first: filter.firstName };
    if (names.route === 'pieces') {
      // Every name holding the fragment holds its first three characters; a fragment of
      // exactly three is its piece, and needs no other check.
      const piece = [...names.fragment].slice(0, 3).join('');
      // The collation names the person-order index (first_name_pieces_by_person, last_name_pieces_by_person).
      where.push(inPersonOrder ? `e.piece COLLATE "C" = ${param(piece)}` : `e.piece = ${param(piece)}`);
      if (piece === names.fragment) checked[names.lead] = undefined;
    }
    if (names.route === 'dictionary') {
      // The distinct folded names holding the leading fragment come from the dictionary's
      // own indexes (server/db/derived): a fragment of one or two characters by its short
      // fragments, a longer one (a first name) by its first three characters and then
      // whole. The employments bearing those names come out of a btree by equality.
      const { lead } = names;
      const fragment = checked[lead]!;
      const characters = [...fragment];
      const holds =
        characters.length < 3
          ? `short_fragments(n.folded) @> ARRAY[${param(fragment)}::text]`
          : `name_pieces(n.folded) @> ARRAY[${param(characters.slice(0, 3).join(''))}::text] AND n.folded LIKE ${param(filterParameter(nameRules[lead], fragment))}`;
      where.push(`e.${lead}_name_folded = ANY (ARRAY(SELECT n.folded FROM ${lead}_name_dictionary n WHERE ${holds}))`);
      checked[lead] = undefined;
    }
    for (const side of ['last', 'first'] as const) {
      const fragment = checked[side];
      if (fragment !== undefined) where.push(filterCondition(nameRules[side], param(filterParameter(nameRules[side], fragment))));
    }
    filterConditions(afterNames, filter, where, param, bounds);
    const limit = param(filter.limit);
    const offset = param(filter.offset);

    // The distinct people the conditions match (what a search that is not a listing pages and counts).
    const matched = `SELECT DISTINCT e.person_created_at AS created_at, e.person_id AS id FROM ${authorizedEmployees} WHERE ${where.join(' AND ')}`;
    let pageAndTotal: string;
    if (rollup) {
      // A listing: its total and the days its page falls in come from the people rollups.
      pageAndTotal = pageAndTotalFromRollups({
        rollup,
        scope: param(rollup.key),
        // By created time alone, a credential's employments are found company by company.
        listed: inline ? 'employees e' : 'credential_companies cc JOIN employees e ON cc.credential_id = $1::uuid AND e.company_id = cc.company_id',
        conditions: where.join(' AND '),
        createdFrom: bounds!.atLeast!,
        createdBefore: bounds!.below!,
        limit,
        offset,
      });
    } else if (inPersonOrder) {
      // In person order the matches come sorted: the page is their first people, and the
      // total one more pass that counts each person once.
      pageAndTotal = `
     outside AS MATERIALIZED (${outside!}),
     page AS MATERIALIZED (${matched} ORDER BY 1, 2 LIMIT ${limit} OFFSET ${offset}),
     total AS (SELECT count(*) AS n FROM (${matched}) m)`;
    } else {
      // A name, phone or person id (or a company outside the credential, which selects
      // nobody) selects few enough people to collect them all: they are sorted once,
      // de-duplicated in that order and counted while the page is cut from them (cheaper
      // than hashing them, then counting and sorting them apart). Only a page past the end
      // counts them again.
      pageAndTotal = `
     page AS MATERIALIZED (
       SELECT created_at, id, count(*) OVER () AS n
         FROM (${matched} ORDER BY 1, 2) m
        ORDER BY created_at, id LIMIT ${limit} OFFSET ${offset}
     ),
     total AS (SELECT coalesce((SELECT n FROM page LIMIT 1), (SELECT count(*) FROM (${matched}) m)) AS n)`;
    }

    const systems = filter.externalIdSystems === undefined ? undefined : param(filter.externalIdSystems);
    // The entry names the page's people in response order and, for a person id that matched
    // nobody, whom it asked for; `at` is the response's asOf.
    const audited = audit
      ? `, audited AS (
       INSERT INTO access_audit (at, credential_id, operation, person_ids, not_found_person_id)
       SELECT ${AS_OF}, ${param(audit.credentialId)}::uuid, ${param(audit.operation)},
              ARRAY(SELECT id FROM page ORDER BY created_at, id),
              ${filter.personId === undefined ? 'NULL' : `CASE WHEN (SELECT n FROM total) = 0 THEN ${param(filter.personId)}::uuid END`}
       ${audit.synchronousCommit ? '' : `FROM (SELECT set_config('synchronous_commit', 'off', true)) AS this_transaction`}
     )`
      : '';

    return db.query<PersonRow>(
      `WITH ${pageAndTotal}${audited}
     SELECT ${iso(AS_OF)} AS as_of,
            (SELECT n FROM total) AS total,
            page.id AS person_id,
            CASE WHEN page.id IS NOT NULL THEN
              json_build_object('id', page.id, 'employments', p.employments, 'createdAt', ${iso('page.created_at')}, 'updatedAt', p.updated_at)::text
            END AS person
       FROM (SELECT 1) AS always
       LEFT JOIN page ON true
       LEFT JOIN LATERAL (
         SELECT json_agg(${employeeJson('e', systems)} ORDER BY e.created_at, e.id) AS employments,
                ${iso('max(e.person_updated_at)')} AS updated_at
           FROM ${pageEmployees}
       ) p ON true
      ORDER BY page.created_at, page.id`,
      params,
      // Every shape of this statement has one good plan whatever the values: a person id or
      // a phone picks out a handful of rows; a name fragment one range of the name pieces
      // per company, or (short) names from an array the planner cannot see into in any case;
      // a listing reads rollup rows and a few days of one index. So each shape is planned
      // once per connection, not on every call, which saves planning on every search (see
      // also plan_cache_mode in engines/database.ts). A short fragment over an inline list of
      // companies was the exception (its generic plan descended the name index once per
      // name and company, slower than planning each call), hence the join for those.
      { prepared: true, after: filter.readPosition },
    );
  }
}

/** Placeholders of the creation-day bounds, by how each filter compares (a listing's rollup reads them). */
type Bounds = Partial<Record<FilterRule['match'], string>>;

/**
 * The conditions of these filters, those set, in order. With `bounds` (a listing counted
 * by the rollups), a creation-day filter's value is passed set or not (null), its
 * placeholder kept there.
 */
function filterConditions(
  declared: readonly [string, FilterRule][],
  filter: PersonFilter,
  where: string[],
  param: (value: unknown) => string,
  bounds: Bounds | undefined,
): void {
  const values: Readonly<Record<string, string | undefined>> = filter as FilterValues;
  for (const [name, rule] of declared) {
    const value = values[name];
    if (bounds && rule.rollups === 'creation day') {
      const placeholder = (bounds[rule.match] = param(value ?? null));
      if (value !== undefined) where.push(filterCondition(rule, placeholder));
    } else if (value !== undefined) where.push(filterCondition(rule, param(filterParameter(rule, value))));
  }
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
