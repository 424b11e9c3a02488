// Writes a checked import in one transaction: either every record lands or none does.
// Checks that need the database (references to stored records, ids already stored)
// run inside the same transaction, so nothing can change between check and write.
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/database.js';
import { foldName } from '../domain/names.js';
import { hashToken } from '../domain/tokens.js';
import type { ImportPlan, ImportProblem } from './check.js';

export class ImportRejected extends Error {
  constructor(readonly problems: ImportProblem[]) {
    super(`import rejected: ${problems.length} problem(s); nothing was written`);
  }
}

export interface ImportCounts {
  companies: number;
  persons: number;
  employees: number;
  memberships: number;
  invitations: number;
  linkedUsers: number;
  participations: number;
  coverages: number;
  credentials: number;
}

const BATCH = 2_000;

/** Writes the plan, unless it or the database checks found problems: then writes nothing and names them all. */
export async function writeImport(db: Database, plan: ImportPlan, knownProblems: ImportProblem[] = []): Promise<ImportCounts> {
  return db.transaction(async (tx) => {
    const problems = [...knownProblems, ...(await checkAgainstDatabase(tx, plan))].sort((a, b) => a.line - b.line);
    if (problems.length) throw new ImportRejected(problems);
    await insertAll(tx, plan);
    return {
      companies: plan.companies.length,
      persons: plan.persons.length,
      employees: plan.employees.length,
      memberships: plan.perEmployee.membership.length,
      invitations: plan.perEmployee.invitation.length,
      linkedUsers: plan.perEmployee.linkedUser.length,
      participations: plan.perEmployee.participation.length,
      coverages: plan.perEmployee.coverage.length,
      credentials: plan.credentials.length,
    };
  });
}

/** Which of `ids` are stored in `table` (and meet `condition`, if given). */
async function existing(tx: Queryable, table: string, column: string, ids: string[], cast: string, condition = 'true'): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await tx.query<{ id: string }>(`SELECT ${column}::text AS id FROM ${table} WHERE ${column} = ANY($1::${cast}[]) AND ${condition}`, [ids]);
  return new Set(rows.map((r) => r.id));
}

async function checkAgainstDatabase(tx: Queryable, plan: ImportPlan): Promise<ImportProblem[]> {
  const problems: ImportProblem[] = [];
  const missing = async (kind: keyof ImportPlan['external'], table: string, cast: string, noun: string) => {
    const refs = plan.external[kind];
    const found = await existing(tx, table, 'id', [...new Set(refs.map((r) => r.id))], cast);
    for (const r of refs) if (!found.has(r.id)) problems.push({ line: r.line, record: r.record, message: `unknown ${noun} ${r.id}: not in this import nor in the database` });
  };
  await missing('companies', 'companies', 'text', 'company');
  await missing('persons', 'persons', 'uuid', 'person');
  await missing('employees', 'employees', 'uuid', 'employee');

  const clashes = async (type: string, table: string, cast: string, ids: string[]) => {
    for (const id of await existing(tx, table, 'id', ids, cast)) {
      const o = plan.origin.get(`${type}:${id}`)!;
      problems.push({ line: o.line, record: o.record, message: `${type} ${id} already exists in the database (imports only add records)` });
    }
  };
  await clashes('company', 'companies', 'text', plan.companies.map((c) => c.id));
  await clashes('person', 'persons', 'uuid', plan.persons.map((p) => p.id));
  await clashes('employee', 'employees', 'uuid', plan.employees.map((e) => e.id));

  // Each of these records is at most one per employment, stored in the employment's own
  // columns (migration 005): one already there means this one would be a second.
  const storedIn = { membership: 'membership_status IS NOT NULL', invitation: 'invitation_status IS NOT NULL', linkedUser: 'linked_user_status IS NOT NULL', participation: 'has_participation', coverage: 'coverage_status IS NOT NULL' } as const;
  for (const [type, condition] of Object.entries(storedIn) as [keyof typeof storedIn, string][]) {
    const recs = plan.perEmployee[type];
    const stored = await existing(tx, 'employees', 'id', recs.map((r) => r.employeeId), 'uuid', condition);
    for (const r of recs) {
      if (stored.has(r.employeeId)) problems.push({ ...plan.origin.get(`${type}:${r.employeeId}`)!, message: `employee ${r.employeeId} already has a ${type} record in the database; at most one per employment` });
    }
  }
  for (const c of plan.credentials) {
    const [clash] = await tx.query('SELECT 1 FROM credentials WHERE token_hash = $1 OR ($2::uuid IS NOT NULL AND id = $2::uuid)', [credentialHash(c), c.id ?? null]);
    if (clash) { const o = plan.origin.get(`credential:${c.name}`)!; problems.push({ ...o, message: 'a credential with this token or id already exists' }); }
  }
  return problems;
}

function credentialHash(c: ImportPlan['credentials'][number]): Buffer {
  return c.tokenHash ? Buffer.from(c.tokenHash, 'hex') : hashToken(c.token!);
}

/** Writes `rows` in batches with one `unnest` per batch: one round trip per 2,000 rows. */
async function writeBatches<T>(tx: Queryable, rows: T[], sql: string, columns: ((row: T) => unknown)[]): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    await tx.query(sql, columns.map((column) => batch.map(column)));
  }
}

async function insertAll(tx: Queryable, plan: ImportPlan): Promise<void> {
  await writeBatches(tx, plan.companies, 'INSERT INTO companies (id, name) SELECT * FROM unnest($1::text[], $2::text[])', [(c) => c.id, (c) => c.name]);
  await writeBatches(tx, plan.persons, 'INSERT INTO persons (id, created_at, updated_at) SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[])', [(p) => p.id, (p) => p.createdAt, (p) => p.updatedAt]);

  // The person's times are copied onto each employment, and its external ids are stored
  // with it, distinct and in byte order (migrations 001 and 006).
  await writeBatches(
    tx,
    plan.employees,
    `INSERT INTO employees (id, company_id, person_id, person_created_at, person_updated_at, first_name, last_name, first_name_folded, last_name_folded,
       date_of_birth, gender, email, phone, address_line1, address_line2, city, state, postal_code, created_at, updated_at, external_ids)
     SELECT e.id, e.company_id, e.person_id, p.created_at, p.updated_at, e.first_name, e.last_name, e.first_name_folded, e.last_name_folded,
       e.date_of_birth, e.gender, e.email, e.phone, e.line1, e.line2, e.city, e.state, e.postal_code, e.created_at, e.updated_at,
       (SELECT coalesce(jsonb_agg(jsonb_build_object('system', d.system, 'system_id', d.system_id) ORDER BY d.system COLLATE "C", d.system_id COLLATE "C"), '[]')
          FROM (SELECT DISTINCT x->>'system' AS system, x->>'system_id' AS system_id FROM jsonb_array_elements(e.external_ids) x) d)
     FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::date[], $9::text[], $10::text[],
                 $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::timestamptz[], $18::timestamptz[], $19::jsonb[])
       AS e(id, company_id, person_id, first_name, last_name, first_name_folded, last_name_folded, date_of_birth, gender, email,
            phone, line1, line2, city, state, postal_code, created_at, updated_at, external_ids)
     LEFT JOIN persons p ON p.id = e.person_id`,
    [
      (e) => e.id, (e) => e.companyId, (e) => e.personId, (e) => e.firstName, (e) => e.lastName,
      (e) => foldName(e.firstName), (e) => foldName(e.lastName), (e) => e.dateOfBirth, (e) => e.gender, (e) => e.email,
      (e) => e.phone, (e) => e.address.line1, (e) => e.address.line2, (e) => e.address.city, (e) => e.address.state,
      (e) => e.address.postalCode, (e) => e.createdAt, (e) => e.updatedAt, (e) => JSON.stringify(e.externalIds),
    ],
  );

  // An employment's membership, invitation, linked user, participation and coverage are
  // columns of it (migration 005), filled in whether it came in this import or before.
  const { membership, invitation, linkedUser, participation, coverage } = plan.perEmployee;
  await writeBatches(tx, membership, 'UPDATE employees e SET membership_status = r.status FROM unnest($1::uuid[], $2::text[]) AS r(id, status) WHERE e.id = r.id', [(r) => r.employeeId, (r) => r.status]);
  await writeBatches(tx, invitation, 'UPDATE employees e SET invitation_status = r.status, invitation_invited_at = r.invited_at, invitation_expires_at = r.expires_at FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::timestamptz[]) AS r(id, status, invited_at, expires_at) WHERE e.id = r.id', [(r) => r.employeeId, (r) => r.status, (r) => r.invitedAt, (r) => r.expiresAt]);
  await writeBatches(tx, linkedUser, 'UPDATE employees e SET linked_user_status = r.status FROM unnest($1::uuid[], $2::text[]) AS r(id, status) WHERE e.id = r.id', [(r) => r.employeeId, (r) => r.status]);
  await writeBatches(tx, participation, 'UPDATE employees e SET has_participation = true, participation_decision = r.decision, participation_decided_at = r.decided_at FROM unnest($1::uuid[], $2::text[], $3::timestamptz[]) AS r(id, decision, decided_at) WHERE e.id = r.id', [(r) => r.employeeId, (r) => r.decision, (r) => r.decidedAt]);
  await writeBatches(tx, coverage, 'UPDATE employees e SET coverage_status = r.status, coverage_starts_at = r.starts_at, coverage_ends_at = r.ends_at, coverage_plan_tier = r.plan_tier FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::timestamptz[], $5::text[]) AS r(id, status, starts_at, ends_at, plan_tier) WHERE e.id = r.id', [(r) => r.employeeId, (r) => r.status, (r) => r.startsAt, (r) => r.endsAt, (r) => r.planTier]);

  for (const c of plan.credentials) {
    const id = c.id ?? randomUUID();
    await tx.query('INSERT INTO credentials (id, name, token_hash) VALUES ($1, $2, $3)', [id, c.name, credentialHash(c)]);
    if (c.companies.length) await tx.query('INSERT INTO credential_companies (credential_id, company_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [id, c.companies]);
  }
}
