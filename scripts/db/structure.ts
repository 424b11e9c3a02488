// npm run db:structure: migrates a fresh embedded database and writes what it holds to
// server/db/schema/structure.sql (tests/operating/migrations.test.ts checks it on both engines).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { migrate } from '../../server/db/schema/migrate.js';
import { describeStructure } from '../../server/db/schema/structure.js';

const db = await openDatabase({});
await migrate(db);
const target = fileURLToPath(new URL('../../server/db/schema/structure.sql', import.meta.url));
writeFileSync(target, await describeStructure(db));
await db.close();
process.stdout.write(`wrote ${target}\n`);
