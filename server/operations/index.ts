// Every contract operation has exactly one handler here (a missing one fails to compile).
import type { Database } from '../db/database.js';
import type { PersonQueryOptions } from '../domain/persons.js';
import { getPerson } from './getPerson.js';
import { hello } from './hello.js';
import { searchPersons } from './searchPersons.js';
import type { OperationHandler, OperationId } from './types.js';

export function createOperations(db: Database, options: PersonQueryOptions): Record<OperationId, OperationHandler> {
  return {
    hello,
    searchPersons: searchPersons(db, options),
    getPerson: getPerson(db, options),
  };
}
