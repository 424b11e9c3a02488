// The domain's EmployeeQueries (server/domain/employeeQueries.ts) over SQL: the employees
// query planned (employeesPlan.ts), rendered (statements.ts, employeesSql.ts) and run as
// one statement.
import type { AuditInStatement } from '../../domain/accessAudit.js';
import type { EmployeeQueries } from '../../domain/employeeQueries.js';
import type { EmployeeFilter, EmployeePage } from '../../domain/employees.js';
import type { Queryable } from '../engines/database.js';
import { employeesPlan } from './employeesPlan.js';
import { statementOf } from './statements.js';

/** One row per employment on the page (or one with none, for an empty page). */
interface EmployeeRow {
  as_of: string;
  total: string;
  employee_id: string | null;
  employee: string | null;
}

export class SqlEmployeeQueries implements EmployeeQueries {
  constructor(private readonly db: Queryable) {}

  async findPage(filter: EmployeeFilter, audit?: AuditInStatement): Promise<EmployeePage> {
    const { sql, params, options } = statementOf(employeesPlan(filter, audit));
    const rows = await this.db.query<EmployeeRow>(sql, params, options);
    return {
      asOf: rows[0]!.as_of,
      total: Number(rows[0]!.total),
      employees: rows.flatMap((row) => (row.employee === null ? [] : [{ id: row.employee_id!, json: row.employee }])),
    };
  }
}
