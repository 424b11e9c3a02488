// The files the import bench applies (and the replicas' change file), as an operator's sync
// writes them: the whole dataset as one NDJSON file, a change file touching 1% of the people,
// and a churn file. Each change file comes with its inverse (the stored records as they were),
// so the bench database ends a run as it began; records are read back from the stored rows
// through the one definition of an employment's columns.

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { entityRecords } from '../../server/dataset/toRecords.js';
import type { Queryable } from '../../server/db/engines/database.js';
import { type EmploymentRecordKind, employeeFields, employmentRecordKindNames, employmentRecordKinds } from '../../server/domain/employment.js';
import type { EmployeeRecord, ImportRecord } from '../../server/importing/records.js';
import type { Dataset } from '../dataset/generate.js';

/** Writes records as NDJSON, waiting when the disk is slower than the generator. */
export async function writeNdjson(path: string, records: Iterable<ImportRecord>): Promise<number> {
  const out = createWriteStream(path);
  let count = 0;
  let chunk = '';
  for (const record of records) {
    chunk += `${JSON.stringify(record)}\n`;
    count++;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return count;
}

/** The whole dataset, as an import file: companies, then each person with their employments, then unlinked ones, then credentials. */
export function* datasetRecords(dataset: Dataset): Generator<ImportRecord> {
  for (const c of dataset.companies) yield { type: 'company', id: c.id, name: c.name };
  for (const entity of dataset.entities()) yield* entityRecords(entity);
  for (const c of dataset.credentials)
    yield { type: 'credential', name: c.name, token: c.token, companies: c.companies, fields: c.fields, purpose: `bench: reads ${c.fields.join(', ')}` };
}

interface StoredEmployment {
  employee: EmployeeRecord;
  records: ImportRecord[];
}

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/** Stored employments (selected by `where` over `e`), as the records that would restate them. */
async function storedEmployments(db: Queryable, where: string, params: unknown[]): Promise<StoredEmployment[]> {
  const rows = await db.query<Record<string, unknown>>(`SELECT e.* FROM employees e WHERE ${where} ORDER BY e.id`, params);
  return rows.map((row) => {
    const employee: any = { type: 'employee' };
    for (const f of employeeFields) {
      let node = employee;
      for (const key of f.path.slice(0, -1)) node = node[key] ??= {};
      node[f.path.at(-1)!] = iso(row[f.column]);
    }
    const records: ImportRecord[] = [];
    for (const kind of employmentRecordKindNames) {
      const definition: EmploymentRecordKind = employmentRecordKinds[kind];
      const present = definition.flag ? row[definition.flag] : row[definition.fields[0]!.column] !== null;
      if (!present) continue;
      const record: any = { type: kind, employeeId: row.id };
      for (const f of definition.fields) record[f.path[0]!] = iso(row[f.column]);
      records.push(record);
    }
    return { employee, records };
  });
}

async function storedPersons(db: Queryable, ids: string[]): Promise<ImportRecord[]> {
  const rows = await db.query<{ id: string; created_at: Date; updated_at: Date }>(
    'SELECT id::text, created_at, updated_at FROM persons WHERE id = ANY($1::uuid[]) ORDER BY id',
    [ids],
  );
  return rows.map((p) => ({ type: 'person', id: p.id, createdAt: p.created_at.toISOString(), updatedAt: p.updated_at.toISOString() }));
}

export interface ChangeFiles {
  change: ImportRecord[];
  inverse: ImportRecord[];
  /** What the change does, for the report. */
  description: string;
}

/** A deterministic sample of `n` ids of `table`, by a hash of the id with a seed. */
async function sample(db: Queryable, table: 'persons' | 'employees', n: number, seed: string, where = 'true'): Promise<string[]> {
  const rows = await db.query<{ id: string }>(`SELECT id::text FROM ${table} WHERE ${where} ORDER BY md5(id::text || $1) LIMIT $2`, [seed, n]);
  return rows.map((r) => r.id);
}

/** A share of the people: six in ten renamed, a quarter with an employment relinked (or unlinked), the rest deleted with their employments. */
export async function peopleChange(db: Queryable, share: number): Promise<ChangeFiles> {
  const [{ n }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM persons')) as [{ n: number }];
  const people = await sample(db, 'persons', Math.max(3, Math.round(n * share)), 'people-change');
  const stored = await storedEmployments(db, 'e.person_id = ANY($1::uuid[])', [people]);
  const byPerson = new Map<string, StoredEmployment[]>();
  for (const s of stored) byPerson.set(s.employee.personId!, [...(byPerson.get(s.employee.personId!) ?? []), s]);
  const change: ImportRecord[] = [];
  const inverse: ImportRecord[] = [];
  const deletedPersons: string[] = [];
  let renamed = 0;
  let relinked = 0;
  people.forEach((person, i) => {
    const jobs = byPerson.get(person) ?? [];
    const bucket = i % 20;
    if (bucket < 12) {
      renamed++;
      for (const { employee } of jobs) {
        change.push({ ...employee, lastName: `${employee.lastName}-Wed`, updatedAt: '2026-11-21T00:00:00.000Z' });
        inverse.push(employee);
      }
    } else if (bucket < 17 && jobs.length) {
      relinked++;
      const { employee } = jobs[0]!;
      // To a renamed person (bucket 0 of this twenty), never one this file deletes.
      change.push({ ...employee, personId: bucket === 16 ? null : people[i - bucket]! });
      inverse.push(employee);
    } else {
      deletedPersons.push(person);
      for (const { employee } of jobs) change.push({ type: 'delete', record: 'employee', id: employee.id });
      change.push({ type: 'delete', record: 'person', id: person });
    }
  });
  // The inverse brings the deleted people back first, then their employments as they were.
  const restored = await storedPersons(db, deletedPersons);
  const restoredJobs = stored.filter((s) => deletedPersons.includes(s.employee.personId!)).flatMap((s) => [s.employee, ...s.records]);
  return {
    change,
    inverse: [...restored, ...restoredJobs, ...inverse],
    description: `${int(people.length)} people (${shareOf(people.length, n)}): ${int(renamed)} renamed, ${int(relinked)} with an employment relinked or unlinked, ${int(deletedPersons.length)} deleted with their employments`,
  };
}

const int = (n: number) => n.toLocaleString('en-US');
/** `part` of `whole` as a percentage, to two significant digits ("1%", "0.25%"). */
const shareOf = (part: number, whole: number) => `${Number(((part / whole) * 100).toPrecision(2))}%`;

/** 10% of linked employments changed (address and email, some renamed), 1% relinked to another person, 1% deleted. */
export async function churn(db: Queryable): Promise<ChangeFiles> {
  const [{ n }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM employees WHERE person_id IS NOT NULL')) as [{ n: number }];
  const ids = await sample(db, 'employees', Math.round(n * 0.12), 'churn', 'person_id IS NOT NULL');
  const stored = await storedEmployments(db, 'e.id = ANY($1::uuid[])', [ids]);
  const people = await sample(db, 'persons', Math.round(n * 0.01), 'churn-targets');
  const change: ImportRecord[] = [];
  const inverse: ImportRecord[] = [];
  const tenth = Math.round(n * 0.1);
  const hundredth = Math.round(n * 0.01);
  stored.forEach(({ employee, records }, i) => {
    if (i < tenth) {
      change.push({
        ...employee,
        email: `moved.${employee.email}`,
        address: { ...employee.address, line1: `${i} Churn Street` },
        lastName: i % 5 ? employee.lastName : `${employee.lastName}-Lee`,
      });
      inverse.push(employee);
    } else if (i < tenth + hundredth) {
      change.push({ ...employee, personId: people[i % people.length]! });
      inverse.push(employee);
    } else {
      change.push({ type: 'delete', record: 'employee', id: employee.id });
      inverse.push(employee, ...records);
    }
  });
  return {
    change,
    inverse,
    description: `${int(tenth)} employments changed (10%, a fifth renamed), ${int(hundredth)} relinked (1%), ${int(stored.length - tenth - hundredth)} deleted (1%)`,
  };
}
