// The domain's EmployeeQueries (server/domain/employeeQueries.ts) over SQL: the employees
// query planned (plan.ts), rendered (render.ts) and run as one statement, planned once per
// connection for each shape (every shape has one good plan whatever its values: a
// company's range of the unlinked index, or a few ranges and a sort of a few thousand).
import type { AuditInStatement } from '../../domain/accessAudit.js';
import type { EmployeeQueries } from '../../domain/employeeQueries.js';
import type { EmployeeFilter, EmployeePage } from '../../domain/employees.js';
import type { Queryable } from '../engines/database.js';
import { planEmployeeSearch } from './plan.js';
import { renderEmployeeSearch } from './render.js';

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
    const { text, params } = renderEmployeeSearch(planEmployeeSearch(filter, audit));
    const rows = await this.db.query<EmployeeRow>(text, params, { prepared: true, after: filter.readPosition });
    return {
      asOf: rows[0]!.as_of,
      total: Number(rows[0]!.total),
      employees: rows.flatMap((row) => (row.employee === null ? [] : [{ id: row.employee_id!, json: row.employee }])),
    };
  }
}
