// Every contract operation has exactly one handler here (a missing one fails to compile).
// The person and employee operations record what they return in the access audit. They
// read through the domain's PersonQueries and EmployeeQueries, which app.ts wires to the
// database.
import type { AccessAudit } from '../domain/accessAudit.js';
import type { EmployeeAnswer, EmployeeQueries } from '../domain/employeeQueries.js';
import type { PersonQueries } from '../domain/personQueries.js';
import type { PersonQueryOptions } from '../domain/persons.js';
import { ExactLookups } from './exactLookups.js';
import { getPerson } from './getPerson.js';
import { hello } from './hello.js';
import { searchEmployees } from './searchEmployees.js';
import { searchPersons } from './searchPersons.js';
import type { OperationHandler, OperationId } from './types.js';

export function createOperations(
  persons: PersonQueries,
  employees: EmployeeQueries,
  audit: AccessAudit,
  options: PersonQueryOptions,
): Record<OperationId, OperationHandler> {
  // Exact lookups share statements, unless each must write its own audit entry.
  const shared = !audit.inStatement;
  const lookups = shared ? new ExactLookups(persons.findPagesByKey.bind(persons)) : undefined;
  const employeeLookups = shared ? new ExactLookups<'phone', EmployeeAnswer>((filter, _phone, asks) => employees.findPagesByPhone(filter, asks)) : undefined;
  return {
    hello,
    searchPersons: searchPersons(persons, audit, lookups, options),
    getPerson: getPerson(persons, audit, lookups, options),
    searchEmployees: searchEmployees(employees, audit, employeeLookups, options),
  };
}
