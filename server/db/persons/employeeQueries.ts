// The domain's EmployeeQueries (server/domain/employeeQueries.ts) over SQL: the employees
// query, and many phone searches at once, each planned (employeesPlan.ts), rendered
// (statements.ts, employeesSql.ts, employeesByPhoneSql.ts) and run as one statement.
import type { AuditInStatement } from '../../domain/accessAudit.js';
import type { EmployeeAnswer, EmployeeQueries } from '../../domain/employeeQueries.js';
import type { EmployeeFilter, EmployeePage } from '../../domain/employees.js';
import type { PageAsk, PersonsByKeyFilter } from '../../domain/personQueries.js';
import type { Queryable } from '../engines/database.js';
import { employeesByPhonePlan, employeesPlan } from './employeesPlan.js';
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

  async findPagesByPhone(scope: PersonsByKeyFilter, asks: readonly PageAsk[]): Promise<{ asOf: string; answers: EmployeeAnswer[] }> {
    const { sql, params, options } = statementOf(employeesByPhonePlan(scope, asks));
    const rows = await this.db.query<EmployeeRow & { ask: string | null }>(sql, params, options);
    const answers: EmployeeAnswer[] = asks.map(() => ({ total: 0, employees: [] }));
    for (const row of rows) {
      if (row.ask === null) continue;
      const answer = answers[Number(row.ask) - 1]!;
      answer.total = Number(row.total);
      if (row.employee !== null) answer.employees.push({ id: row.employee_id!, json: row.employee });
    }
    return { asOf: rows[0]!.as_of, answers };
  }
}
