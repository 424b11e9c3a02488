// Loads the demo dataset into an empty database (never over existing data).
import type { Database } from '../db/engines/database.js';
import { demoCredentials } from './credentials.js';

export interface DemoLoad {
  loaded: boolean;
  summary: string;
  tokens: { name: string; token: string }[];
}

export async function loadDemoIfEmpty(db: Database, defaultPhoneRegion: string): Promise<DemoLoad | undefined> {
  const [{ count }] = (await db.query<{ count: string }>('SELECT count(*) FROM companies')) as [{ count: string }];
  const tokens = demoCredentials.map(({ name, token }) => ({ name, token }));
  if (Number(count) > 0) {
    // Data is present: show the demo tokens only if the demo data is what is there.
    const [demo] = await db.query('SELECT 1 FROM credentials WHERE name = $1 AND revoked_at IS NULL', [demoCredentials[0]!.name]);
    return demo ? { loaded: false, summary: '', tokens } : undefined;
  }
  // The generator (faker) and the importer are loaded only when there is something to load.
  const [{ importRecords }, { demoDataset }] = await Promise.all([import('../importing/index.js'), import('./dataset.js')]);
  const counts = await importRecords(db, demoDataset(), defaultPhoneRegion);
  return {
    loaded: true,
    summary: `${counts.company.added} companies, ${counts.person.added} people, ${counts.employee.added} employments (some unlinked), every status`,
    tokens,
  };
}
