// The import format's table of an employment's fields (server/importing/FORMAT.md) is
// written from the employment's declaration: it must list what the import checks today.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fieldsTable, withFieldsTable } from '../../scripts/importFormat/fieldsTable.js';
import { employeeFields } from '../../server/domain/employment.js';

const formatMd = new URL('../../server/importing/FORMAT.md', import.meta.url);

describe('the import format', () => {
  it("lists an employment's fields as the declaration has them (npx tsx scripts/importFormat/write.ts)", () => {
    const markdown = readFileSync(formatMd, 'utf8');
    expect(markdown).toBe(withFieldsTable(markdown));
  });

  it('names every field of an employee record', () => {
    for (const f of employeeFields) expect(fieldsTable()).toContain(`\`${f.name}\``);
  });
});
