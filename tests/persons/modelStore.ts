// The reference model's store: what the database should hold after each import, written
// from the operator's contract (server/importing/FORMAT.md) alone, record by record in
// file order, in plain maps. It shares no code with server/.
import type { ImportRecord } from '../../server/importing/records.js';

type Kind = 'membership' | 'invitation' | 'linkedUser' | 'participation' | 'coverage';
const kinds: Kind[] = ['membership', 'invitation', 'linkedUser', 'participation', 'coverage'];

export class ModelStore {
  companies = new Map<string, Extract<ImportRecord, { type: 'company' }>>();
  persons = new Map<string, Extract<ImportRecord, { type: 'person' }>>();
  employees = new Map<string, Extract<ImportRecord, { type: 'employee' }>>();
  records: Record<Kind, Map<string, ImportRecord>> = {
    membership: new Map(),
    invitation: new Map(),
    linkedUser: new Map(),
    participation: new Map(),
    coverage: new Map(),
  };

  clone(): ModelStore {
    const copy = new ModelStore();
    copy.companies = new Map(this.companies);
    copy.persons = new Map(this.persons);
    copy.employees = new Map(this.employees);
    for (const kind of kinds) copy.records[kind] = new Map(this.records[kind]);
    return copy;
  }

  /** Applies a file: records in order, later ones win; then each snapshot company loses the employments the file lacks. */
  apply(file: ImportRecord[], snapshots: string[] = []): void {
    const inFile = new Set(file.filter((r) => r.type === 'employee').map((r) => (r as { id: string }).id));
    const dropped = [...this.employees.values()].filter((e) => snapshots.includes(e.companyId) && !inFile.has(e.id)).map((e) => e.id);
    for (const r of file) {
      if (r.type === 'company') this.companies.set(r.id, r);
      else if (r.type === 'person') this.persons.set(r.id, r);
      else if (r.type === 'employee') this.employees.set(r.id, r);
      else if (r.type === 'credential') continue;
      else if (r.type === 'delete') {
        if ('employeeId' in r) this.records[r.record].delete(r.employeeId);
        else if (r.record === 'company') this.companies.delete(r.id);
        else if (r.record === 'person') this.persons.delete(r.id);
        else this.dropEmployee(r.id);
      } else this.records[r.type].set(r.employeeId, r);
    }
    for (const id of dropped) this.dropEmployee(id);
  }

  /** Whether every reference resolves (what the import requires of the state after a file). */
  consistent(): boolean {
    for (const e of this.employees.values()) {
      if (!this.companies.has(e.companyId)) return false;
      if (e.personId !== null && !this.persons.has(e.personId)) return false;
    }
    return kinds.every((kind) => [...this.records[kind].keys()].every((id) => this.employees.has(id)));
  }

  /** Every record held, as an import file would state it (for the model's search). */
  asRecords(): ImportRecord[] {
    return [...this.companies.values(), ...this.persons.values(), ...this.employees.values(), ...kinds.flatMap((k) => [...this.records[k].values()])];
  }

  private dropEmployee(id: string): void {
    this.employees.delete(id);
    for (const kind of kinds) this.records[kind].delete(id);
  }
}
