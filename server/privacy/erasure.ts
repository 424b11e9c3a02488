// Erasure (npm run erase): a person, a company, or one employment record, removed with
// every derived copy in one transaction that holds the writers' lock, so what it reports
// is what it removed. A dry run reads the same scope in one snapshot and changes nothing.
// Reports hold ids and counts only, never a personal value.

import { deleteCompanies, deleteEmployments, deletePersons } from '../db/derived/index.js';
import type { Database, Queryable, Transaction } from '../db/engines/database.js';
import { lockCredential, removeCompaniesFromReplacedSets, replaceCompanySet } from '../db/stores/credentials.js';
import {
  auditEntriesNaming,
  companyScope,
  employmentScope,
  personScope,
  replacedSetMemberships,
  resampleStatistics,
  unlinkedLookalikes,
} from '../db/stores/erasure.js';
import { lockDataWriters } from '../db/stores/writersLock.js';

/** An erasure that cannot be made (an unknown id); the message says why, for the operator. */
export class ErasureRefused extends Error {}

export interface ErasureOptions {
  /** Report what would be removed; change nothing. */
  dryRun?: boolean;
}

export interface PersonErasure {
  subject: 'person';
  id: string;
  dryRun: boolean;
  persons: number;
  employments: number;
  /** The companies they had employments in. */
  companies: string[];
  /** Unlinked employments sharing an identifying value with them: reported, not erased. */
  unlinkedLookalikes: string[];
  /** Access audit entries naming them: kept (ids only) until their retention ends. */
  auditEntriesKept: number;
}

export interface CompanyErasure {
  subject: 'company';
  id: string;
  dryRun: boolean;
  companies: number;
  employments: { linked: number; unlinked: number };
  /** People left with no employment anywhere, erased with the company. */
  persons: string[];
  /** People with employments elsewhere: only their employment here goes. */
  personsKept: number;
  /** Credentials whose companies held it, each with the companies it keeps. */
  credentials: { id: string; name: string; companiesLeft: string[] }[];
  /** Memberships of company sets credentials no longer point at (see db/stores/credentials.ts), including the sets this erasure replaced. */
  replacedSetMemberships: number;
  unlinkedLookalikes: string[];
  auditEntriesKept: number;
}

export interface EmploymentErasure {
  subject: 'employment';
  id: string;
  dryRun: boolean;
  employments: number;
  companyId: string;
  personId: string | null;
  personLeftWithoutEmployment: boolean;
}

export type Erasure = PersonErasure | CompanyErasure | EmploymentErasure;

export function erasePerson(db: Database, id: string, options: ErasureOptions = {}): Promise<PersonErasure> {
  return inErasure(db, options, async (tx, dryRun) => {
    const scope = await personScope(tx, id);
    if (!scope) throw new ErasureRefused(`no person ${id} (never imported, or already erased)`);
    const report: PersonErasure = {
      subject: 'person',
      id,
      dryRun,
      persons: 1,
      employments: scope.employments.length,
      companies: [...new Set(scope.employments.map((e) => e.companyId))],
      unlinkedLookalikes: await unlinkedLookalikes(tx, [id]),
      auditEntriesKept: await auditEntriesNaming(tx, [id]),
    };
    if (dryRun) return report;
    const employments = await deleteEmployments(
      tx,
      scope.employments.map((e) => e.id),
    );
    const persons = await deletePersons(tx, [id]);
    expectRemoved('employments', employments, report.employments);
    expectRemoved('persons', persons, 1);
    return report;
  });
}

export function eraseCompany(db: Database, id: string, options: ErasureOptions = {}): Promise<CompanyErasure> {
  return inErasure(db, options, async (tx, dryRun) => {
    const scope = await companyScope(tx, id);
    if (!scope) throw new ErasureRefused(`no company ${id} (never imported, or already erased)`);
    const report: CompanyErasure = {
      subject: 'company',
      id,
      dryRun,
      companies: 1,
      employments: { linked: scope.linkedEmployments, unlinked: scope.unlinkedEmployments },
      persons: scope.personsLeft,
      personsKept: scope.personsKept,
      credentials: [],
      replacedSetMemberships: await replacedSetMemberships(tx, id),
      unlinkedLookalikes: await unlinkedLookalikes(tx, scope.personsLeft),
      auditEntriesKept: await auditEntriesNaming(tx, scope.personsLeft),
    };
    // A credential's companies change by a new set, as every change of companies does;
    // the set it replaces then loses the company with the other replaced sets.
    for (const { id: credentialId, name } of scope.credentials) {
      const credential = dryRun ? undefined : await lockCredential(tx, credentialId);
      const companies = credential?.companies ?? (await currentCompanies(tx, credentialId));
      const companiesLeft = companies.filter((c) => c !== id);
      report.credentials.push({ id: credentialId, name, companiesLeft });
      if (credential) await replaceCompanySet(tx, credentialId, credential.companySetId, companiesLeft);
      report.replacedSetMemberships += 1;
    }
    if (dryRun) return report;
    expectRemoved('replaced company set memberships', await removeCompaniesFromReplacedSets(tx, [id]), report.replacedSetMemberships);
    expectRemoved('companies', await deleteCompanies(tx, [id]), 1);
    expectRemoved('persons', await deletePersons(tx, scope.personsLeft), scope.personsLeft.length);
    return report;
  });
}

export function eraseEmployment(db: Database, id: string, options: ErasureOptions = {}): Promise<EmploymentErasure> {
  return inErasure(db, options, async (tx, dryRun) => {
    const scope = await employmentScope(tx, id);
    if (!scope) throw new ErasureRefused(`no employment ${id} (never imported, or already erased)`);
    const report: EmploymentErasure = {
      subject: 'employment',
      id,
      dryRun,
      employments: 1,
      companyId: scope.companyId,
      personId: scope.personId,
      personLeftWithoutEmployment: scope.personLeftWithout,
    };
    if (!dryRun) expectRemoved('employments', await deleteEmployments(tx, [id]), 1);
    return report;
  });
}

/**
 * One transaction. A real erasure takes the writers' lock before it reads its scope, so
 * no import or other writer changes it in between, and samples the planner statistics
 * again before it commits (the upkeep's notes of what it deleted are emptied at commit,
 * server/db/derived/upkeep.sql). A dry run reads one snapshot and writes nothing.
 */
async function inErasure<T>(db: Database, { dryRun = false }: ErasureOptions, work: (tx: Transaction, dryRun: boolean) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    if (dryRun) {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      return work(tx, true);
    }
    await lockDataWriters(tx);
    // The feed calls the persons this transaction deletes erased (person.erased, upkeep.sql).
    await tx.query("SELECT set_config('lookup.erasure', 'on', true)");
    const report = await work(tx, false);
    await resampleStatistics(tx);
    return report;
  });
}

async function currentCompanies(tx: Queryable, credentialId: string): Promise<string[]> {
  const rows = await tx.query<{ company_id: string }>(
    'SELECT cc.company_id FROM credentials c JOIN credential_companies cc ON cc.credential_id = c.company_set_id WHERE c.id = $1 ORDER BY 1',
    [credentialId],
  );
  return rows.map((r) => r.company_id);
}

/** Under the writers' lock the scope cannot change; a difference is a bug, and rolls everything back. */
function expectRemoved(what: string, removed: number, expected: number): void {
  if (removed !== expected) throw new Error(`erasure removed ${removed} ${what} where it found ${expected}; nothing was changed`);
}
