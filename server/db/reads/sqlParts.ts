// The parts every read statement renders the same way (plans.ts): its parameters, named
// and listed in one order before any SQL is written, so each part refers to its values by
// name and numbering is nobody's side effect; the forms of authorization; the conditions
// on a matching employment `e`; the page's cut, by offset or after a cursor's key; what
// the answer shows; the columns of the rows every statement returns (rows.ts); and the
// access audit entry a statement writes itself.
import type { AuditInStatement } from '../../domain/accessAudit.js';
import type { QueryOptions } from '../engines/database.js';
import { AS_OF, type EmployeeShows, iso, sortAt } from './employeeJson.js';
import { filterCondition, filterParameter } from './personFilters.js';
import type { Authorization, Condition, PageAsk, PlanPage, PlanShows } from './plans.js';

/** A statement as the database receives it. */
export interface Statement {
  sql: string;
  params: unknown[];
  options: QueryOptions;
}

/** The statement's parameters, by name, in the order they are numbered ($1 first). */
export type Parameters = readonly (readonly [name: string, value: unknown])[];

/** A parameter's placeholder by its name, e.g. `$3`. */
export type Placeholders = (name: string) => string;

export function placeholdersOf(parameters: Parameters): Placeholders {
  const numbers = new Map(parameters.map(([name], i) => [name, i + 1]));
  return (name) => {
    const n = numbers.get(name);
    if (n === undefined) throw new Error(`no parameter ${name} in this statement`);
    return `$${n}`;
  };
}

/** The statement of these parameters and this SQL. */
export function statement(sql: string, parameters: Parameters, options: QueryOptions): Statement {
  return { sql, params: parameters.map(([, value]) => value), options };
}

/** The authorization's value, always the statement's first parameter ($1). */
export function authorizationParameter(authorization: Authorization): readonly [string, unknown] {
  const value =
    authorization.form === 'company' ? authorization.company : authorization.form === 'companies' ? authorization.companies : authorization.credentialId;
  return ['authorization', value];
}

/** An inline authorization's condition on `e` (one company, or an array of them). */
export function authorizedCondition(authorization: Authorization): string {
  return authorization.form === 'company' ? 'e.company_id = $1::text' : 'e.company_id = ANY($1::text[])';
}

/** The join with the credential's company set, as `alias`, that authorizes `e`. */
export const companySetJoin = (alias: string) =>
  `JOIN credential_companies ${alias} ON ${alias}.credential_id = $1::uuid AND ${alias}.company_id = e.company_id`;

/**
 * The employments `e` of the credential's companies by created time alone, as a FROM item:
 * the employees (held by authorizedCondition), or company by company through its company set.
 */
export function employeesListed(authorization: Authorization): string {
  return authorization.form === 'company set'
    ? 'credential_companies cc JOIN employees e ON cc.credential_id = $1::uuid AND e.company_id = cc.company_id'
    : 'employees e';
}

/** A page person's authorized employments (`person` is the person's id), as `e` with its WHERE. */
export function pageEmployees(authorization: Authorization, person: string): string {
  return authorization.form === 'company set'
    ? `employees e ${companySetJoin('ecc')} WHERE e.person_id = ${person}`
    : `employees e WHERE e.person_id = ${person} AND ${authorizedCondition(authorization)}`;
}

/** The parameters of a condition, named after it. */
export function conditionParameters(condition: Condition): Parameters {
  switch (condition.kind) {
    case 'filter':
      return [[`filter ${condition.name}`, condition.value === null ? null : filterParameter(condition.rule, condition.value)]];
    case 'piece':
      return [['piece', condition.piece]];
    case 'dictionary':
      return [...condition.fragment].length < 3
        ? [['dictionary fragment', condition.fragment]]
        : [
            ['dictionary piece', [...condition.fragment].slice(0, 3).join('')],
            ['dictionary pattern', filterParameter(condition.rule, condition.fragment)],
          ];
  }
}

/**
 * A condition's SQL on `e`; none for a bound passed but not compared. The dictionary's
 * names holding a fragment come from its own indexes (server/db/derived): a fragment of
 * one or two characters by its short fragments, a longer one by its first three
 * characters and then whole; the employments bearing them from a btree by equality.
 */
export function conditionSql(condition: Condition, $: Placeholders): string | undefined {
  switch (condition.kind) {
    case 'filter':
      return condition.value === null ? undefined : filterCondition(condition.rule, $(`filter ${condition.name}`));
    case 'piece':
      // The collation names the person-order index (first_name_pieces_by_person, last_name_pieces_by_person;
      // migration 009): the column's own, "C", names the primary key. Both compare bytes.
      return condition.personOrder ? `e.piece COLLATE "POSIX" = ${$('piece')}` : `e.piece = ${$('piece')}`;
    case 'dictionary': {
      const holds =
        [...condition.fragment].length < 3
          ? `short_fragments(n.folded) @> ARRAY[${$('dictionary fragment')}::text]`
          : `name_pieces(n.folded) @> ARRAY[${$('dictionary piece')}::text] AND n.folded LIKE ${$('dictionary pattern')}`;
      return `e.${condition.lead}_name_folded = ANY (ARRAY(SELECT n.folded FROM ${condition.lead}_name_dictionary n WHERE ${holds}))`;
    }
  }
}

/** The page's parameters: how many rows, after how many (or after which key). */
export const pageParameters = (plan: PlanPage): Parameters =>
  plan.start === undefined
    ? [
        ['limit', plan.limit],
        ['offset', plan.offset],
      ]
    : [
        ['limit', plan.limit],
        ['start at', plan.start.at],
        ['start id', plan.start.id],
      ];

/** The page's cut of rows in response order: by offset, or (where a cursor's key starts it, whose condition the rows met) its first rows. */
export const pageCut = (plan: PlanPage, $: Placeholders) => (plan.start === undefined ? `LIMIT ${$('limit')} OFFSET ${$('offset')}` : `LIMIT ${$('limit')}`);

/** Whether a result whose order is (`at`, `id`) comes after the cursor's key (`after`), or up to it (`upTo`). */
export const fromStart = (side: 'after' | 'upTo', at: string, id: string, $: Placeholders) =>
  `(${at}, ${id}) ${side === 'after' ? '>' : '<='} (${$('start at')}::timestamptz, ${$('start id')}::uuid)`;

/** How many results precede the page: the offset asked for, or those up to the cursor's key, counted in a CTE `before`. */
export const precedingCount = (plan: PlanPage, $: Placeholders) => (plan.start === undefined ? `${$('offset')}::int8` : '(SELECT n FROM before)');

/** Many lookups' asks (a key's value and a page each), as parallel arrays the statement unnests with their ordinality. */
export const askParameters = (asks: readonly PageAsk[]): Parameters => [
  ['values', asks.map((a) => a.value)],
  ['limits', asks.map((a) => a.limit)],
  ['offsets', asks.map((a) => a.offset)],
];

/** The asks as the FROM item `a(value, page_limit, page_offset, ask)`. */
export const asksUnnested = ($: Placeholders) =>
  `unnest(${$('values')}::text[], ${$('limits')}::int8[], ${$('offsets')}::int8[]) WITH ORDINALITY AS a(value, page_limit, page_offset, ask)`;

/** Whether a lookup's numbered match `r` is on its ask's page. (A difference, not a sum: an offset may be as large as 2^53.) */
export const ON_ASKED_PAGE = 'r.n > r.page_offset AND r.n - r.page_offset <= r.page_limit';

/** The parameter of the external systems whose ids the answer shows, if it shows some but not all. */
export const showsParameters = (plan: PlanShows): Parameters =>
  plan.externalIdSystems === undefined || !plan.fields.includes('externalIds') ? [] : [['systems', plan.externalIdSystems]];

/** What the plan's Employees show (employeeJson.ts), with the placeholder of the systems shown. */
export const employeeShows = (plan: PlanShows, $: Placeholders): EmployeeShows => ({
  fields: plan.fields,
  systems: showsParameters(plan).length ? $('systems') : undefined,
});

/** The columns of a row of a page (rows.ts PageRow), each given as SQL. */
export interface PageRowSql {
  ask: string;
  total: string;
  offset: string;
  /** The result's id, creation instant and JSON (NULL on the row of a page without results). */
  id: string;
  createdAt: string;
  item: string;
}

/** The select list of a page's row: asOf, and the columns rows.ts PageRow names. */
export const pageRowColumns = (row: PageRowSql) => `${iso(AS_OF)} AS as_of, ${row.ask} AS ask, ${row.total} AS total, ${row.offset} AS page_offset,
            ${row.id} AS item_id, ${sortAt(row.createdAt)} AS sort_at,
            ${row.item} AS item`;

/** The parameters of the access audit entry the statement writes, if it writes one. */
export const auditParameters = (audit: AuditInStatement | undefined): Parameters =>
  audit
    ? [
        ['audit credential', audit.credentialId],
        ['audit operation', audit.operation],
        ['audit purpose', audit.purpose],
        ['audit fields', audit.fields],
      ]
    : [];

/** The entry's columns that auditedBy fills. */
export const AUDITED_BY_COLUMNS = 'at, credential_id, operation, purpose, fields';

/** The entry's `at`, `credential_id`, `operation`, `purpose` and `fields`: the response's asOf, who asked, for what, and under which grant. */
export const auditedBy = ($: Placeholders) =>
  `${AS_OF}, ${$('audit credential')}::uuid, ${$('audit operation')}, ${$('audit purpose')}, ${$('audit fields')}::text[]`;

/** The page's ids in response order, as the entry names them. */
export const PAGE_IDS = 'ARRAY(SELECT id FROM page ORDER BY created_at, id)';

/** Where the entry need not wait for its flush to disk, this transaction's commit does not (the entry's FROM). */
export const auditCommit = (audit: AuditInStatement) =>
  audit.synchronousCommit ? '' : `FROM (SELECT set_config('synchronous_commit', 'off', true)) AS this_transaction`;
