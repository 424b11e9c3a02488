// npm run db:structure: migrates a fresh embedded database and writes what it holds to
// server/db/structure.sql (tests/operating/migrations.test.ts checks it on both engines).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { migrate } from '../../server/db/migrate.js';
import { openDatabase } from '../../server/db/openDatabase.js';
import { describeStructure } from '../../server/db/structure.js';

const db = await openDatabase({});
await migrate(db);
const target = fileURLToPath(new URL('../../server/db/structure.sql', import.meta.url));
writeFileSync(target, await describeStructure(db));
await db.close();
process.stdout.write(`wrote ${target}\n`);
