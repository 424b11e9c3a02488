// No response leaves the service unaudited, even when the process dies: the service runs
// in its own process under concurrent person operations and is killed (SIGKILL) the
// moment a client has received enough answers, with requests still in flight and audit
// batches being written. Every answer a client received, every person id in it, must then
// be in the audit, as written by the entry of that very response. With the spool (the
// default), a sibling instance sharing the spool directory adopts the dead one's file, and
// the audit then holds each spooled line exactly once: none lost, none shipped twice.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOfCredential } from '../../server/db/stores/accessAudit.js';
import { findActiveCredential } from '../../server/db/stores/credentials.js';
import { demoCredentials, demoDataset } from '../../server/demo/dataset.js';
import { hashToken } from '../../server/domain/tokens.js';
import { importRecords } from '../../server/importing/index.js';
import { type ChildServer, startChildServer } from '../helpers/childServer.js';
import { type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { databaseUrl } from '../helpers/environment.js';

const CLIENTS = 12;
/** Answers received before the kill. */
const RECEIVED = 300;

interface Answer {
  operation: 'searchPersons' | 'getPerson' | 'searchEmployees';
  asOf: string;
  personIds: string[];
}

if (!databaseUrl) {
  describe.skip('access audit across a crash (set DATABASE_URL to run)', () => it('skipped', () => {}));
}

/** The whole lines of every spool file in `dir`. */
const spooledLines = (dir: string) =>
  readdirSync(dir).flatMap((name) => {
    const text = readFileSync(join(dir, name), 'utf8');
    return text
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .filter(Boolean);
  });

describe.runIf(databaseUrl).each(['spool', 'commit'] as const)('access audit across a crash of the service process (AUDIT_DURABILITY=%s)', (durability) => {
  let database: ThrowawayDatabase;
  let server: ChildServer;
  let sibling: ChildServer | undefined;
  const spoolDir = mkdtempSync(join(tmpdir(), 'audit-crash-'));
  const token = demoCredentials[0]!.token;
  let personIds: string[];
  beforeAll(async () => {
    database = await throwawayDatabase('postgres');
    await importRecords(database.db, demoDataset(), 'US');
    personIds = (await database.db.query<{ id: string }>('SELECT id::text FROM persons ORDER BY id LIMIT 60')).map((r) => r.id);
    const env = {
      DATABASE_URL: database.url!,
      DEMO_DATA: 'false',
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
      AUDIT_DURABILITY: durability,
      AUDIT_SPOOL_DIR: spoolDir,
    };
    [server, sibling] = await Promise.all([startChildServer(env), durability === 'spool' ? startChildServer(env) : undefined]);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await sibling?.stop();
    await database?.drop();
    rmSync(spoolDir, { recursive: true, force: true });
  });

  it('holds the entry of every answer a client received before the kill', async () => {
    const answers: Answer[] = [];
    let killed = false;
    const ask = async (i: number): Promise<Answer | undefined> => {
      const search = i % 2 === 0;
      const res = search
        ? await fetch(`${server.url}/v1/persons/search`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ limit: 1 + (i % 7), offset: i % 40 }),
          })
        : await fetch(`${server.url}/v1/persons/${personIds[i % personIds.length]}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await res.json()) as any;
      if (res.status === 404) return undefined; // nobody returned; its entry is checked below by count
      expect(res.status).toBe(200);
      return search
        ? { operation: 'searchPersons', asOf: body.asOf, personIds: body.persons.map((p: { id: string }) => p.id) }
        : { operation: 'getPerson', asOf: body.asOf, personIds: [body.person.id] };
    };
    const client = async (offset: number) => {
      for (let i = offset; !killed; i += CLIENTS) {
        // Requests cut off by the kill fail; an answer that arrives whole was sent, kill or not.
        const answer = await ask(i).catch(() => undefined);
        if (!answer) continue;
        answers.push(answer);
        if (!killed && answers.length >= RECEIVED) {
          killed = true;
          server.process.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
    expect((await server.exited).signal).toBe('SIGKILL');
    expect(answers.length).toBeGreaterThanOrEqual(RECEIVED);

    const credentialId = (await findActiveCredential(database.db, hashToken(token)))!.id;
    if (durability === 'spool') {
      // What the dead instance spooled, shipped or not; its sibling adopts the file (within
      // its adoption interval) and deletes it once every line is in the audit.
      const spooled = spooledLines(spoolDir).length;
      expect(spooled).toBeGreaterThanOrEqual(RECEIVED);
      await sibling!.waitForLog('adopted and shipped an orphaned access audit spool', 30_000);
      const [row] = await database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM access_audit');
      expect(row!.n, 'entries in the audit against lines spooled').toBe(spooled);
    }
    const audited = await auditOfCredential(database.db, credentialId);
    const key = (a: Answer) => `${a.operation} ${a.asOf} ${a.personIds.join(',')}`;
    const entries = new Map<string, number>();
    for (const e of audited) {
      const k = key({ operation: e.operation, asOf: e.at.toISOString(), personIds: e.personIds });
      entries.set(k, (entries.get(k) ?? 0) + 1);
    }
    const missing = answers.filter((a) => {
      const left = entries.get(key(a)) ?? 0;
      entries.set(key(a), left - 1);
      return left <= 0;
    });
    expect(missing, 'answers sent without an audit entry').toEqual([]);
    const received = new Set(answers.flatMap((a) => a.personIds));
    const recorded = new Set(audited.flatMap((e) => e.personIds));
    expect([...received].filter((id) => !recorded.has(id))).toEqual([]);
  }, 90_000);
});
