// Every contract operation has exactly one handler here (a missing one fails to compile).
// The person and employee operations read through the domain's LookupReads, which app.ts
// wires to the database: each read is recorded in the access audit before it returns.
// List changes reads the change feed (domain/changes.ts ChangeFeed).
import type { ChangeFeed } from '../domain/changes.js';
import type { PersonQueryOptions } from '../domain/persons.js';
import type { LookupReads } from '../domain/reads.js';
import { getPerson } from './getPerson.js';
import { hello } from './hello.js';
import { listChanges } from './listChanges.js';
import { searchEmployees } from './searchEmployees.js';
import { searchPersons } from './searchPersons.js';
import type { OperationHandler, OperationId } from './types.js';

export function createOperations(reads: LookupReads, feed: ChangeFeed, options: PersonQueryOptions): Record<OperationId, OperationHandler> {
  return {
    hello,
    searchPersons: searchPersons(reads, options),
    getPerson: getPerson(reads, options),
    searchEmployees: searchEmployees(reads, options),
    listChanges: listChanges(feed),
  };
}
