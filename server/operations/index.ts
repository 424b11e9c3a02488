// Every contract operation has exactly one handler here (a missing one fails to compile).
// The person operations record what they return in the access audit.
import type { AccessAudit } from '../access/auditWriter.js';
import type { Database } from '../db/database.js';
import type { PersonQueryOptions } from '../domain/persons.js';
import { getPerson } from './getPerson.js';
import { hello } from './hello.js';
import { searchPersons } from './searchPersons.js';
import type { OperationHandler, OperationId } from './types.js';

export function createOperations(db: Database, audit: AccessAudit, options: PersonQueryOptions): Record<OperationId, OperationHandler> {
  return {
    hello,
    searchPersons: searchPersons(db, audit, options),
    getPerson: getPerson(db, audit, options),
  };
}
