// A read plan (kinds.ts ReadPlan) sent as its one statement and read back as its pages:
// the one way the read path queries the database.
import type { Page } from '../../domain/reads.js';
import type { Queryable } from '../engines/database.js';
import { type ReadPlan, statementOf } from './kinds.js';
import { type PageRow, pagesOf } from './rows.js';

/** Each of the plan's asks' page (a search's plan has one), read in one statement, so in one snapshot. */
export async function runPlan(db: Queryable, plan: ReadPlan): Promise<Page[]> {
  const { sql, params, options } = statementOf(plan);
  return pagesOf(await db.query<PageRow>(sql, params, options), 'asks' in plan ? plan.asks : [plan]);
}
