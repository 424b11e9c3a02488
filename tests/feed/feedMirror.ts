// A consumer's mirror kept from the feed alone, as docs/consuming/changes.md describes one:
// each company followed over HTTP (List changes, `next` sent back as `after`), each change
// applied to a copy of which employment is where and linked to whom. Tests compare it with
// the database (or the reference model): equal, the feed missed nothing and invented nothing.
import { expect } from 'vitest';
import type { Call } from '../helpers/call.js';

export interface MirroredEmployee {
  companyId: string;
  personId: string | null;
}

interface Change {
  position: string;
  kind: string;
  companyId: string;
  employeeId: string | null;
  personId: string | null;
}

export class FeedMirror {
  readonly employees = new Map<string, MirroredEmployee>();
  /** Every change applied, per company, in the order read. */
  readonly seen = new Map<string, Change[]>();
  private readonly cursors = new Map<string, string | undefined>();

  constructor(
    private readonly call: Call,
    private readonly token: string,
    private readonly limit = 50,
  ) {}

  /** Reads each company's changes until caught up (a page that is not full), applying them. */
  async follow(companies: Iterable<string>): Promise<void> {
    for (const companyId of companies) {
      for (;;) {
        const after = this.cursors.get(companyId);
        const res = await this.call('GET', `/v1/companies/${companyId}/changes?limit=${this.limit}${after ? `&after=${after}` : ''}`, { token: this.token });
        expect(res.status, `${companyId}: ${JSON.stringify(res.body)}`).toBe(200);
        for (const change of res.body.changes as Change[]) this.apply(change);
        this.cursors.set(companyId, res.body.next);
        if (res.body.changes.length < this.limit) break;
      }
    }
  }

  private apply(change: Change): void {
    this.seen.set(change.companyId, [...(this.seen.get(change.companyId) ?? []), change]);
    const id = change.employeeId;
    switch (change.kind) {
      case 'employee.created':
      case 'employee.updated':
        this.employees.set(id!, { companyId: change.companyId, personId: change.personId });
        break;
      case 'employee.linked':
        this.employees.set(id!, { companyId: change.companyId, personId: change.personId });
        break;
      case 'employee.unlinked':
        this.employees.set(id!, { companyId: change.companyId, personId: null });
        break;
      case 'employee.deleted':
        // (A move's deletion here comes after its creation there only if this company is read later: keep the other company's.)
        if (this.employees.get(id!)?.companyId === change.companyId) this.employees.delete(id!);
        break;
      case 'person.erased':
      case 'person.deleted':
        for (const [employeeId, e] of this.employees) if (e.personId === change.personId && e.companyId === change.companyId) this.employees.delete(employeeId);
        break;
      case 'company.deleted':
        for (const [employeeId, e] of this.employees) if (e.companyId === change.companyId) this.employees.delete(employeeId);
        break;
    }
  }

  /** The mirror's employments of `companies`, sorted, to compare. */
  of(companies: ReadonlySet<string>): [string, MirroredEmployee][] {
    return [...this.employees].filter(([, e]) => companies.has(e.companyId)).sort(([a], [b]) => a.localeCompare(b));
  }
}
