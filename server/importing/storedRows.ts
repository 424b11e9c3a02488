// The rows an import stages and stores for an employment, in PostgreSQL's COPY text, and
// their columns: public for the bench's floors, which land the same rows in unindexed
// tables (raw COPY) or in the stored tables alone, to show what writing them costs before
// any of the import's own work.
import { employmentColumns } from '../db/employmentColumns.js';
import { personTimeColumns } from '../domain/employment.js';

export { copyLine } from '../db/engines/copyText.js';
export { employeeRecordColumns } from '../db/import/staging.js';
export { employeeRow, storedEmploymentRow } from './rows.js';

/** The columns of storedEmploymentRow's row, in its order. */
export const storedEmploymentColumns: readonly string[] = [...employmentColumns.map((c) => c.column), ...personTimeColumns];
