// The domain's LookupReads over SQL (app.ts hands it to the operations): each read is one
// call that returns its page only once the access audit has it, in the configured mode
// (server/access/auditWriter.ts):
// - written by the read's own statement (commit, flush): the entry commits with the read;
// - appended to the spool after the read and before the page comes back (spool), where
//   exact lookups of one event-loop turn also share a statement (lookups.ts);
// - neither (auditing off).
import type { AccessAudit, AuditedOperation, AuditInStatement, SpooledEntry } from '../../domain/accessAudit.js';
import type { EmployeeFilter } from '../../domain/employees.js';
import type { PersonFilter } from '../../domain/persons.js';
import type { LookupReads, Page, Reader } from '../../domain/reads.js';
import type { Queryable } from '../engines/database.js';
import { ExactLookups, type LookupKey, lookupKeyOf, phoneLookupOf } from './lookups.js';
import { findEmployees, findEmployeesByPhone, findPersons, findPersonsByKey } from './queries.js';

export class AuditedReads implements LookupReads {
  /** Exact lookups share statements where no entry is written by its own read. */
  private readonly personLookups?: ExactLookups<LookupKey>;
  private readonly phoneLookups?: ExactLookups<'phone'>;

  constructor(
    private readonly db: Queryable,
    private readonly audit: AccessAudit,
  ) {
    if (audit.inStatement) return;
    this.personLookups = new ExactLookups((scope, key, asks) => findPersonsByKey(db, scope, key, asks));
    this.phoneLookups = new ExactLookups((scope, _phone, asks) => findEmployeesByPhone(db, scope, asks));
  }

  async searchPersons(filter: PersonFilter, reader: Reader): Promise<Page> {
    const key = filter.start === undefined ? lookupKeyOf(filter) : undefined;
    const page =
      this.personLookups && key
        ? await this.personLookups.lookUp(filter, key, { value: filter[key]!, limit: filter.limit, offset: filter.offset })
        : await findPersons(this.db, filter, this.inStatement('searchPersons', reader));
    // A search for one person id that matched nobody names whom it asked for.
    await this.spool('searchPersons', reader, page, { notFoundPersonId: filter.personId !== undefined && page.total === 0 ? filter.personId : undefined });
    return page;
  }

  async getPerson(filter: PersonFilter, reader: Reader): Promise<Page> {
    const personId = filter.personId!;
    const page = this.personLookups
      ? await this.personLookups.lookUp(filter, 'personId', { value: personId, limit: 1, offset: 0 })
      : await findPersons(this.db, { ...filter, limit: 1, offset: 0 }, this.inStatement('getPerson', reader));
    // Asking for someone is an access attempt, answered or not.
    await this.spool('getPerson', reader, page, { notFoundPersonId: page.items.length ? undefined : personId });
    return page;
  }

  async searchEmployees(filter: EmployeeFilter, reader: Reader): Promise<Page> {
    const page =
      this.phoneLookups && filter.start === undefined && phoneLookupOf(filter) !== undefined
        ? await this.phoneLookups.lookUp(filter, 'phone', { value: filter.phone!, limit: filter.limit, offset: filter.offset })
        : await findEmployees(this.db, filter, this.inStatement('searchEmployees', reader));
    await this.spool('searchEmployees', reader, page, { employeeIds: page.items.map((item) => item.id) });
    return page;
  }

  /** The entry the read's own statement writes, in that mode. */
  private inStatement(operation: AuditedOperation, { credentialId, purpose, fields }: Reader): AuditInStatement | undefined {
    const { inStatement } = this.audit;
    return inStatement && { credentialId, operation, purpose, fields, synchronousCommit: inStatement.synchronousCommit };
  }

  /** The entry appended to the spool, in that mode: who read whom, for a page of people or (employeeIds) of unlinked records. */
  private async spool(operation: AuditedOperation, reader: Reader, page: Page, ids: Pick<SpooledEntry, 'notFoundPersonId' | 'employeeIds'>): Promise<void> {
    await this.audit.spool?.append({
      at: page.asOf,
      credentialId: reader.credentialId,
      operation,
      purpose: reader.purpose,
      fields: reader.fields,
      personIds: ids.employeeIds ? [] : page.items.map((item) => item.id),
      ...ids,
    });
  }
}
