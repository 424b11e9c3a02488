// What the bench asks: Get person and each Search persons and Search employees filter kind,
// with values drawn from the data (dataset/samples.ts), as HTTP requests, and as the filters
// the service derives from them for the stored credential (for the direct-SQL reference).
import type { Config } from '../server/config.js';
import { Random } from '../server/dataset/random.js';
import type { Queryable } from '../server/db/engines/database.js';
import { findActiveCredential } from '../server/db/stores/credentials.js';
import type { Credential } from '../server/domain/credentials.js';
import { type EmployeeFilter, employeeSearchFilter, type SearchEmployeesRequest } from '../server/domain/employees.js';
import { encodeCursor, filterFingerprint } from '../server/domain/pageCursor.js';
import { type PersonFilter, type SearchRequest, searchFilter } from '../server/domain/persons.js';
import { hashToken } from '../server/domain/tokens.js';
import type { DatasetInfo } from './dataset/build.js';
import type { BenchCredential, CredentialKey } from './dataset/generate.js';
import { drawRows, mostCommonFragment, namePiece, type SampleRow, weekFrom } from './dataset/samples.js';

export const personKinds = {
  getPerson: 'Get person',
  nameSubstring: 'last name substring (3+ chars)',
  firstLastName: 'first + last name',
  phone: 'phone',
  companyName: 'company + last name',
  personId: 'personId',
  createdRange: 'created range (1 week)',
  offset10k: 'offset 10,000',
  firstPage: 'first page (no filter)',
  cursorDeep: 'cursor page deep in the company (no filter)',
} as const;

export type PersonKind = keyof typeof personKinds;

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

/** What the credential reading names and emails only asks, beside the same asks of the full one (issue 57). */
export const NARROW_CREDENTIAL_KINDS: readonly PersonKind[] = ['getPerson', 'nameSubstring'];

/** Measured with the access audit on and off: Get person (one id an entry), a name search and a week's listing (full pages, the largest entries). */
export const AUDITED_KINDS: readonly PersonKind[] = ['getPerson', 'nameSubstring', 'createdRange'];

export interface HttpRequestSpec {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** A direct-SQL ask of the employees query (the direct runner tells it from a person filter by `employees`). */
export type EmployeeAsk = EmployeeFilter & { employees: true };

export interface Workload<Filter = PersonFilter> {
  http: HttpRequestSpec[];
  direct: Filter[];
}

/** A bench credential, as the service holds it (so that direct SQL gets the service's exact filters), and filter values drawn from its companies. */
export interface AskedAs {
  credential: BenchCredential;
  held: Credential;
  samples: FilterSamples;
}

/** Linked employments of a credential's companies, and the seed the names' pieces are drawn with. */
export type FilterSamples = { rows: SampleRow[]; seed: number };

export async function askAs(db: Queryable, info: DatasetInfo, key: CredentialKey, count: number): Promise<AskedAs> {
  const credential = info.credentials.find((c) => c.key === key)!;
  const held = await findActiveCredential(db, hashToken(credential.token));
  if (!held) throw new Error(`credential "${credential.name}" is not in the bench database`);
  const { seed } = info.scale;
  const rows = await drawRows(db, credential.companies, true, { count, seed });
  if (!rows.length) throw new Error(`no linked employments in the companies of "${credential.name}": nothing to sample`);
  return { credential, held, samples: { rows, seed } };
}

/** The authenticated hello a process under test answers once ready, as `credential`. */
export const helloAs = (credential: BenchCredential) => ({ companyId: credential.companies[0]!, token: credential.token });

/** "+14155550132" → "(415) 555-0132": phones arrive as people type them, the service normalizes. */
export const nationalFormat = (e164: string) => (/^\+1\d{10}$/.test(e164) ? `(${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}` : e164);

/** Each search kind's request bodies, from the drawn rows (`piece`: a part of a name, as typed). */
const searchBodies: Record<Exclude<PersonKind, 'getPerson'>, (rows: SampleRow[], piece: (name: string) => string) => SearchRequest[]> = {
  nameSubstring: (rows, piece) => rows.map((r) => ({ lastName: piece(r.last_name) })),
  firstLastName: (rows) => rows.map((r) => ({ firstName: r.first_name, lastName: r.last_name })),
  phone: (rows) => rows.map((r) => ({ phone: nationalFormat(r.phone) })),
  companyName: (rows) => rows.map((r) => ({ companyId: r.company_id, lastName: r.last_name })),
  personId: (rows) => rows.map((r) => ({ personId: r.person_id })),
  createdRange: (rows) => rows.map((r) => weekFrom(r.created_at)),
  offset10k: () => [{ offset: 10_000 }],
  firstPage: () => [{}],
  cursorDeep: (rows) => rows.map((r) => ({ cursor: cursorAfter(r) })),
};

/**
 * The cursor of the page right after a drawn person in the no-filter listing's order (its
 * creation, then its id), as a page ending with them gives it: drawn across the company,
 * most are thousands of people deep.
 */
const cursorAfter = (r: SampleRow) => encodeCursor('persons', { at: r.created_at.toISOString().replace('Z', '000Z'), id: r.person_id }, NO_FILTER);
const NO_FILTER = filterFingerprint('persons', {});

/** Each ask of a kind: its request, and the search it stands for (Get person runs the search query on one id with a page of one). */
function personAsks(kind: PersonKind, samples: FilterSamples): { http: HttpRequestSpec; search: SearchRequest }[] {
  if (kind === 'getPerson')
    return samples.rows.map(({ person_id: personId }) => ({
      http: { method: 'GET', path: `/v1/persons/${personId}` },
      search: { personId, limit: 1, offset: 0 },
    }));
  return searchBodies[kind](samples.rows, namePiece(new Random(samples.seed))).map((search) => ({
    http: { method: 'POST', path: '/v1/persons/search', body: JSON.stringify(search) },
    search,
  }));
}

/** A kind's requests, over HTTP only. */
export const personRequests = (kind: PersonKind, samples: FilterSamples) => personAsks(kind, samples).map((ask) => ask.http);

/** A kind's requests, and the filters the service derives from them: `credential` as the service holds it, `config` as it loads it. */
export function personWorkload(kind: PersonKind, samples: FilterSamples, credential: Credential, config: Config): Workload {
  const asks = personAsks(kind, samples);
  return { http: asks.map((ask) => ask.http), direct: asks.map((ask) => searchFilter(ask.search, credential, config)) };
}

/** The worst case: the name fragment most sampled last names contain, searched as a credential of every company. */
export function worstCaseWorkload(samples: FilterSamples, credential: Credential, config: Config): Workload & { label: string; note: string } {
  const common = mostCommonFragment(samples.rows.map((r) => r.last_name));
  if (!common) throw new Error('no common substring in the samples');
  const body = { lastName: common.substring };
  return {
    label: `worst case: last name contains "${common.substring}"`,
    note: `the most common 3-letter fragment, in ${Math.round(common.share * 100)}% of sampled last names`,
    http: [{ method: 'POST', path: '/v1/persons/search', body: JSON.stringify(body) }],
    direct: [searchFilter(body, credential, config)],
  };
}

/** Each Search employees kind's request bodies, from the drawn unlinked records (`piece`: a part of a name, as typed). */
const employeeBodies: Record<EmployeeKind, (rows: SampleRow[], piece: (name: string) => string) => SearchEmployeesRequest[]> = {
  employeesAll: () => [{}],
  employeesCompany: (rows) => rows.map((r) => ({ companyId: r.company_id })),
  employeesLastName: (rows, piece) => rows.map((r) => ({ lastName: piece(r.last_name) })),
  employeesFirstLast: (rows) => rows.map((r) => ({ firstName: r.first_name, lastName: r.last_name })),
  employeesPhone: (rows) => rows.map((r) => ({ phone: nationalFormat(r.phone) })),
  employeesCreatedRange: (rows) => rows.map((r) => weekFrom(r.created_at)),
  employeesOffset10k: () => [{ offset: 10_000 }],
};

export function employeeWorkload(kind: EmployeeKind, samples: SampleRow[], credential: Credential, config: Config, seed: number): Workload<EmployeeAsk> {
  const drawn = employeeBodies[kind](samples, namePiece(new Random(seed)));
  const bodies: SearchEmployeesRequest[] = drawn.length ? drawn : [{}];
  return {
    http: bodies.map((body) => ({ method: 'POST' as const, path: '/v1/employees/search', body: JSON.stringify(body) })),
    direct: bodies.map((body): EmployeeAsk => ({ ...employeeSearchFilter(body, credential, config), employees: true })),
  };
}
