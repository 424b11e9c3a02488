// Checks a whole import before anything is written: each record against its schema,
// phones parsed to E.164, ids unique, references resolvable, at most one record of each
// per-employment kind. Every problem is collected and named; none is fatal alone.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { toE164 } from '../domain/phone.js';
import type { SourcedRecord } from './parse.js';
import { perEmployeeTypes, recordSchemas, type CredentialRecord, type EmployeeRecord, type ImportRecord, type PerEmployeeType } from './records.js';

export interface ImportProblem {
  line: number;
  record: string;
  message: string;
}

/** Validated records, grouped by kind, with phones already in E.164. */
export interface ImportPlan {
  companies: Extract<ImportRecord, { type: 'company' }>[];
  persons: Extract<ImportRecord, { type: 'person' }>[];
  employees: EmployeeRecord[];
  perEmployee: { [K in PerEmployeeType]: Extract<ImportRecord, { type: K }>[] };
  credentials: CredentialRecord[];
  /** References to records the file does not define: they must already be in the database. */
  external: { companies: Reference[]; persons: Reference[]; employees: Reference[] };
  /** Where each defined id came from, to name a record that collides with the database. */
  origin: Map<string, { line: number; record: string }>;
}

export interface Reference {
  id: string;
  line: number;
  record: string;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
const validators = Object.fromEntries(
  Object.entries(recordSchemas).map(([type, schema]) => [type, ajv.compile(schema)]),
) as Record<ImportRecord['type'], ValidateFunction>;

const label = (r: any): string =>
  r?.type === 'credential' ? `credential "${r.name}"` : `${r?.type ?? 'record'} ${r?.id ?? r?.employeeId ?? ''}`.trim();

export function checkImport(sourced: SourcedRecord[], defaultPhoneRegion: string): { plan: ImportPlan; problems: ImportProblem[] } {
  const problems: ImportProblem[] = [];
  const plan: ImportPlan = {
    companies: [],
    persons: [],
    employees: [],
    perEmployee: { membership: [], invitation: [], linkedUser: [], participation: [], coverage: [] },
    credentials: [],
    external: { companies: [], persons: [], employees: [] },
    origin: new Map(),
  };
  const defined = { company: new Set<string>(), person: new Set<string>(), employee: new Set<string>(), credential: new Set<string>() };
  const seenPerEmployee = Object.fromEntries(perEmployeeTypes.map((t) => [t, new Map<string, number>()])) as Record<PerEmployeeType, Map<string, number>>;

  // Pass 1: shape, uniqueness, normalization.
  for (const { line, value } of sourced) {
    const problem = (message: string) => problems.push({ line, record: label(value), message });
    const type = (value as any)?.type as ImportRecord['type'];
    const validate = validators[type];
    if (!validate) {
      problem(`unknown record type ${JSON.stringify(type)}; expected one of ${Object.keys(validators).join(', ')}`);
      continue;
    }
    if (!validate(value)) {
      for (const e of validate.errors ?? []) problem(`${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`);
      continue;
    }
    const rec = value as ImportRecord;
    switch (rec.type) {
      case 'company':
      case 'person':
      case 'employee': {
        if (defined[rec.type].has(rec.id)) { problem(`duplicate ${rec.type} id in this import`); continue; }
        defined[rec.type].add(rec.id);
        plan.origin.set(`${rec.type}:${rec.id}`, { line, record: label(rec) });
        if (rec.type === 'company') plan.companies.push(rec);
        else if (rec.type === 'person') plan.persons.push(rec);
        else {
          const phone = toE164(rec.phone, defaultPhoneRegion);
          if (!phone) { problem(`phone ${JSON.stringify(rec.phone)} cannot be parsed as a phone number (default region ${defaultPhoneRegion})`); continue; }
          plan.employees.push({ ...rec, phone });
        }
        break;
      }
      case 'credential': {
        if (defined.credential.has(rec.name)) { problem('duplicate credential name in this import'); continue; }
        defined.credential.add(rec.name);
        plan.origin.set(`credential:${rec.name}`, { line, record: label(rec) });
        plan.credentials.push(rec);
        break;
      }
      default: {
        const seen = seenPerEmployee[rec.type];
        const first = seen.get(rec.employeeId);
        if (first !== undefined) {
          problem(`second ${rec.type} record for employee ${rec.employeeId} (first on line ${first}); at most one per employment in this version`);
          continue;
        }
        seen.set(rec.employeeId, line);
        plan.origin.set(`${rec.type}:${rec.employeeId}`, { line, record: label(rec) });
        (plan.perEmployee[rec.type] as ImportRecord[]).push(rec);
      }
    }
  }

  // Pass 2: references. Those the file does not define must exist in the database;
  // writeImport checks them inside its transaction.
  const reference = (kind: 'companies' | 'persons' | 'employees', set: Set<string>, id: string, line: number, record: string) => {
    if (!set.has(id)) plan.external[kind].push({ id, line, record });
  };
  const lineOf = (type: string, id: string) => plan.origin.get(`${type}:${id}`)!;
  for (const e of plan.employees) {
    const { line, record } = lineOf('employee', e.id);
    reference('companies', defined.company, e.companyId, line, record);
    if (e.personId) reference('persons', defined.person, e.personId, line, record);
  }
  for (const type of perEmployeeTypes) {
    for (const rec of plan.perEmployee[type]) {
      reference('employees', defined.employee, rec.employeeId, seenPerEmployee[type].get(rec.employeeId)!, label(rec));
    }
  }
  for (const c of plan.credentials) {
    const { line, record } = lineOf('credential', c.name);
    for (const company of c.companies) reference('companies', defined.company, company, line, record);
  }
  return { plan, problems };
}
