// What the bench asks of Search employees: each filter kind, with values drawn from the
// unlinked records a credential sees (drawEmployeeSamples), as HTTP requests for the
// service and the node:http floor, and as the exact EmployeeFilter the service derives
// (domain/employees.ts employeeSearchFilter) for the direct-SQL reference.
import type { Config } from '../server/config.js';
import { Random } from '../server/dataset/random.js';
import type { Queryable } from '../server/db/engines/database.js';
import type { Credential } from '../server/domain/credentials.js';
import { type EmployeeFilter, employeeSearchFilter, type SearchEmployeesRequest } from '../server/domain/employees.js';
import { nationalFormat } from './scenarios.js';

export const employeeKinds = {
  employeesAll: 'employees: no filter',
  employeesCompany: 'employees: company',
  employeesLastName: 'employees: last name substring',
  employeesFirstLast: 'employees: first + last name',
  employeesPhone: 'employees: phone',
  employeesCreatedRange: 'employees: created range (1 week)',
  employeesOffset10k: 'employees: offset 10,000',
} as const;

export type EmployeeKind = keyof typeof employeeKinds;
export const isEmployeeKind = (kind: string | undefined): kind is EmployeeKind => kind !== undefined && kind in employeeKinds;

/** A direct-SQL ask of the employees query (the direct runner tells it from a person filter by `employees`). */
export type EmployeeAsk = EmployeeFilter & { employees: true };

/** Values from the unlinked records of these companies, in a fixed order for a seed. */
export interface EmployeeSamples {
  rows: { company_id: string; first_name: string; last_name: string; phone: string; created_at: Date }[];
}

export async function drawEmployeeSamples(db: Queryable, companies: readonly string[], count: number, seed: number): Promise<EmployeeSamples> {
  const rows = await db.query<EmployeeSamples['rows'][number]>(
    `SELECT company_id, first_name, last_name, phone, created_at FROM employees
      WHERE person_id IS NULL AND company_id = ANY($1::text[]) ORDER BY md5(id::text || $2::text) LIMIT $3`,
    [companies, String(seed), count],
  );
  // (A tiny dataset may hold none in a credential's companies: its kinds then ask for everything.)
  return { rows };
}

const DAY = 86_400_000;

export function employeeBodies(kind: EmployeeKind, { rows }: EmployeeSamples, seed: number): SearchEmployeesRequest[] {
  const random = new Random(seed);
  const piece = (name: string) => {
    const chars = [...name];
    if (chars.length <= 3) return name;
    const length = random.int(3, Math.min(chars.length, 6));
    const start = random.int(0, chars.length - length);
    return chars.slice(start, start + length).join('');
  };
  const day = (d: Date) => Math.floor(d.getTime() / DAY) * DAY;
  switch (kind) {
    case 'employeesAll':
      return [{}];
    case 'employeesCompany':
      return rows.map((r) => ({ companyId: r.company_id }));
    case 'employeesLastName':
      return rows.map((r) => ({ lastName: piece(r.last_name) }));
    case 'employeesFirstLast':
      return rows.map((r) => ({ firstName: r.first_name, lastName: r.last_name }));
    case 'employeesPhone':
      return rows.map((r) => ({ phone: nationalFormat(r.phone) }));
    case 'employeesCreatedRange':
      return rows.map((r) => ({ createdFrom: new Date(day(r.created_at)).toISOString(), createdBefore: new Date(day(r.created_at) + 7 * DAY).toISOString() }));
    case 'employeesOffset10k':
      return [{ offset: 10_000 }];
  }
}

export function employeeWorkload(kind: EmployeeKind, samples: EmployeeSamples, credential: Credential, config: Config, seed: number) {
  const drawn = employeeBodies(kind, samples, seed);
  const bodies: SearchEmployeesRequest[] = drawn.length ? drawn : [{}];
  return {
    http: bodies.map((body) => ({ method: 'POST' as const, path: '/v1/employees/search', body: JSON.stringify(body) })),
    direct: bodies.map((body): EmployeeAsk => ({ ...employeeSearchFilter(body, credential, config), employees: true })),
  };
}
