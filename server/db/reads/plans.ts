// The parts the read path's plans share. Each statement the read path sends is first
// decided as plain data (which route, which form of authorization, which conditions, how
// the page is cut, what the answer shows) and only then rendered to SQL: sqlParts.ts
// renders these parts, each kind's sql.ts the rest, and kinds.ts lists the kinds
// (ReadPlan). A plan is built from the request and the credential alone, without SQL, so
// its choices are tested without a database (tests/persons/personsPlan.test.ts) and each
// kind's SQL is held by golden files (tests/persons/personSql.test.ts). Adding a kind:
// docs/contributing/person-query.md.
import type { AuditInStatement } from '../../domain/accessAudit.js';
import type { FieldSet } from '../../domain/fieldGroups.js';
import type { FilterRule } from '../../domain/fields.js';
import type { PageStart } from '../../domain/pageCursor.js';

/**
 * How the statement holds employments to the credential's companies (always its first
 * parameter): one company as a plain equality (not `= ANY`), which lets the planner use
 * the index order; a few as an array; many as a join with the credential's company set,
 * since PostgreSQL plans a literal array element by element.
 */
export type Authorization =
  | { form: 'company'; company: string }
  | { form: 'companies'; companies: readonly string[] }
  | { form: 'company set'; credentialId: string };

/** The authorization for these companies: inline (one or an array) or by the credential's company set. */
export function authorization(companies: readonly string[], inline: boolean, credentialId: string): Authorization {
  if (!inline) return { form: 'company set', credentialId };
  return companies.length === 1 ? { form: 'company', company: companies[0]! } : { form: 'companies', companies };
}

/** One condition a matching employment `e` meets, besides its authorization. */
export type Condition =
  /** A filter's rule on its value; null is a creation-day bound left unset that a listing's rollups read (passed, not compared). */
  | { kind: 'filter'; name: string; rule: FilterRule; value: string | null }
  /** A name piece's first three characters (`personOrder`: compared so as to read the by-person index). */
  | { kind: 'piece'; piece: string; personOrder: boolean }
  /** The folded names holding the lead's fragment, from its dictionary; `rule` is the lead name's filter. */
  | { kind: 'dictionary'; lead: 'last' | 'first'; fragment: string; rule: FilterRule };

/** What every plan's answer shows, and where it is read. */
export interface PlanShows {
  /** The field groups each Employee shows: the statement names no column of another. */
  fields: FieldSet;
  /** Which external systems' ids the Employees show; undefined shows all. */
  externalIdSystems?: readonly string[];
  /** Read where the data is at least this far (Credential.readPosition). */
  readPosition?: bigint;
}

/** One page of a statement that reads one: after `offset` results, or right after `start` (a cursor's key). */
export interface PlanPage {
  limit: number;
  offset: number;
  start?: PageStart;
}

/**
 * The access audit entry a statement writes itself, in the statement that reads the page
 * (AUDIT_DURABILITY commit or flush): the entry commits with the read or neither happens.
 */
export type AuditEntryPlan = AuditInStatement;

/** Many exact lookups' asks: a key's value and a page each (the lookups never page by cursor). */
export interface PageAsk {
  value: string;
  limit: number;
  offset: number;
}
