// Dataset entities as rows of PostgreSQL's COPY text format, one table at a time: for the
// employments, exactly the row the import would store (importing/rows.ts
// storedEmploymentRow, from the one declaration of an employment, domain/employment.ts).

import { employmentColumns } from '../../server/db/employmentColumns.js';
import { copyLine } from '../../server/db/engines/copyText.js';
import { personTimeColumns } from '../../server/domain/employment.js';
import type { EmployeeRecord, EmploymentRecord } from '../../server/importing/records.js';
import { storedEmploymentRow } from '../../server/importing/rows.js';
import type { Employment, Person } from './generate.js';
import { employmentRecords } from './toRecords.js';

/** Tables filled by COPY, in dependency order, with their column lists. */
export const copyTables = {
  persons: ['id', 'created_at', 'updated_at'],
  employees: [...employmentColumns.map((c) => c.column), ...personTimeColumns],
} as const;

export type CopyTable = keyof typeof copyTables;
export type CopyBuffers = Record<CopyTable, string[]>;

export const emptyBuffers = (): CopyBuffers => ({ persons: [], employees: [] });

const iso = (ms: number) => new Date(ms).toISOString();

export function appendPerson(buffers: CopyBuffers, person: Person): void {
  buffers.persons.push(copyLine([person.id, iso(person.createdAt), iso(person.updatedAt)]));
  for (const employment of person.employments) appendEmployment(buffers, employment, { createdAt: iso(person.createdAt), updatedAt: iso(person.updatedAt) });
}

export function appendEmployment(b: CopyBuffers, e: Employment, person: { createdAt: string; updatedAt: string } | null): void {
  const [employee, ...records] = employmentRecords(e) as [EmployeeRecord, ...EmploymentRecord[]];
  b.employees.push(copyLine(storedEmploymentRow(employee, records, person)));
}
