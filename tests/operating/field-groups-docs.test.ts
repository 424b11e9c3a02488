// docs/operating/credentials.md lists the field groups an operator grants: the table is
// the one list in server/domain/fieldGroups.ts, group by group, in its order.
import { describe, expect, it } from 'vitest';
import { fieldGroupNames, fieldGroups } from '../../server/domain/fieldGroups.js';
import { docTable } from './docTables.js';

describe('the field groups in credentials.md', () => {
  it('are the groups fieldGroups declares: each name, what it is, the Employee fields it holds', () => {
    const rows = docTable('docs/operating/credentials.md', 'Field groups and purposes').map((cells) => cells.map((cell) => cell.replaceAll('`', '')));
    expect(rows).toEqual(fieldGroupNames.map((group) => [group, fieldGroups[group].description, fieldGroups[group].shows.join(', ')]));
  });
});
