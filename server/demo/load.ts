// Loads the demo dataset into an empty database (never over existing data), with or
// without its credentials: the demo tokens are published in the README, so they are
// served only on a loopback address unless the operator says otherwise (main.ts).
import type { Database } from '../db/engines/database.js';
import { formatFieldSet, isFieldGroup } from '../domain/fieldGroups.js';
import { hashToken } from '../domain/tokens.js';
import { demoCredentials } from './credentials.js';

export interface DemoToken {
  name: string;
  token: string;
  /** The field groups it reads on this database (`all`, or `name,email`): as stored, so a set-fields shows. */
  fields: string;
}

export interface DemoLoad {
  loaded: boolean;
  summary: string;
  /** The demo tokens that work on this database (none when they were left out). */
  tokens: DemoToken[];
}

/**
 * `now`: the instant the demo is generated as of, the load's by default, so that every
 * time in it (an invitation sent, a decision taken) lies before the answers' `asOf` and a
 * pending invitation is still valid for weeks after the start.
 */
export async function loadDemoIfEmpty(db: Database, defaultPhoneRegion: string, withCredentials = true, now = new Date()): Promise<DemoLoad | undefined> {
  const [{ count }] = (await db.query<{ count: string }>('SELECT count(*) FROM companies')) as [{ count: string }];
  if (Number(count) > 0) {
    // Data is present: show the demo tokens only if they are what is there.
    const tokens = await demoTokens(db);
    return tokens.length ? { loaded: false, summary: '', tokens } : undefined;
  }
  // The generator (faker) and the importer are loaded only when there is something to load.
  const [{ importRecords }, { demoDataset }] = await Promise.all([import('../importing/index.js'), import('./dataset.js')]);
  const records = demoDataset({ now }).filter((record) => withCredentials || record.type !== 'credential');
  const counts = await importRecords(db, records, defaultPhoneRegion);
  return {
    loaded: true,
    summary: `${counts.company.added} companies, ${counts.person.added} people, ${counts.employee.added} employments (some unlinked), every status`,
    tokens: withCredentials ? await demoTokens(db) : [],
  };
}

/** The names of the demo credentials whose published token (current or in a rotation's overlap) opens this database. */
export async function activeDemoCredentials(db: Database): Promise<string[]> {
  return (await activeDemoRows(db)).map((r) => r.name);
}

async function activeDemoRows(db: Database): Promise<{ name: string; fields: string[] }[]> {
  const hashes = demoCredentials.map((c) => hashToken(c.token).toString('hex'));
  return db.query<{ name: string; fields: string[] }>(
    `WITH demo AS (SELECT decode(h, 'hex') AS hash FROM unnest($1::text[]) AS h)
     SELECT name, fields FROM credentials
      WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
        AND (token_hash IN (SELECT hash FROM demo)
             OR (previous_token_hash IN (SELECT hash FROM demo) AND previous_token_valid_until > now()))
      ORDER BY name`,
    [hashes],
  );
}

/** The demo tokens that open this database, in demoCredentials' order, with the groups each reads here. */
async function demoTokens(db: Database): Promise<DemoToken[]> {
  const active = new Map((await activeDemoRows(db)).map((r) => [r.name, r.fields]));
  return demoCredentials.flatMap(({ name, token }) => {
    const fields = active.get(name);
    return fields ? [{ name, token, fields: formatFieldSet(fields.filter(isFieldGroup)) }] : [];
  });
}
