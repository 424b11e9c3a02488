// Every contract operation has exactly one handler here (a missing one fails to compile).
// The person operations record what they return in the access audit.
import type { AccessAudit } from '../access/auditWriter.js';
import type { Database } from '../db/database.js';
import type { PersonQueryOptions } from '../domain/persons.js';
import { getPerson } from './getPerson.js';
import { hello } from './hello.js';
import { PersonLookups } from './personLookups.js';
import { searchPersons } from './searchPersons.js';
import type { OperationHandler, OperationId } from './types.js';

export function createOperations(db: Database, audit: AccessAudit, options: PersonQueryOptions): Record<OperationId, OperationHandler> {
  // Exact lookups share statements, unless each must write its own audit entry.
  const lookups = audit.inStatement ? undefined : new PersonLookups(db);
  return {
    hello,
    searchPersons: searchPersons(db, audit, lookups, options),
    getPerson: getPerson(db, audit, lookups, options),
  };
}
