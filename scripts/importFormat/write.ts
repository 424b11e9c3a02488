// Writes the fields table of server/importing/FORMAT.md from the employment's declaration
// (fieldsTable.ts). Run after adding or changing a field: npx tsx scripts/importFormat/write.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withFieldsTable } from './fieldsTable.js';

const target = fileURLToPath(new URL('../../server/importing/FORMAT.md', import.meta.url));
writeFileSync(target, withFieldsTable(readFileSync(target, 'utf8')));
process.stdout.write(`wrote ${target}\n`);
