// The access audit's spool (AUDIT_DURABILITY=spool, PostgreSQL's default) on a real
// PostgreSQL: each entry is in the spool file before its response leaves; the shipper
// moves it into access_audit exactly once, whatever fails between batches; a torn last
// line is never shipped; a dead instance's file is adopted from its recorded offset; and
// a spool that cannot be written fails the request with 503 instead of answering unaudited.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditShipper } from '../../server/access/auditShipper.js';
import { newSpoolName, spoolLine } from '../../server/access/auditSpool.js';
import { registerAuditSpool, shipAuditSpoolBatch } from '../../server/db/stores/accessAudit.js';
import { findActiveCredential } from '../../server/db/stores/credentials.js';
import { demoCredentials, demoDataset } from '../../server/demo/dataset.js';
import { everyField } from '../../server/domain/fieldGroups.js';
import { hashToken } from '../../server/domain/tokens.js';
import { importRecords } from '../../server/importing/index.js';
import { createLogger } from '../../server/observability/logger.js';
import { ids, smallDataset, tokens } from '../fixtures/small.js';
import { contractCall } from '../helpers/call.js';
import { startChildServer } from '../helpers/childServer.js';
import { type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { databaseUrl } from '../helpers/environment.js';
import { startTestServer } from '../helpers/server.js';

const logger = createLogger('silent');
/** Shippers that ship only when told (drain, adopt, close), and adopt files however fresh. */
const manual = { intervalMs: 3_600_000, adoptIntervalMs: 3_600_000, adoptQuietMs: 0 };

describe.runIf(databaseUrl)('access audit spool', () => {
  let database: ThrowawayDatabase;
  let dir: string;
  let credentialId: string;
  const db = () => database.db;
  const count = async () => (await db().query<{ n: number }>('SELECT count(*)::int AS n FROM access_audit'))[0]!.n;
  const entry = (i: number) => ({
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    credentialId,
    operation: 'getPerson' as const,
    purpose: 'tests',
    fields: everyField,
    personIds: [ids.ana],
  });
  const line = (i: number) => `${spoolLine(entry(i))}\n`;
  const spooledFiles = () => readdirSync(dir);

  beforeAll(async () => {
    database = await throwawayDatabase('postgres');
    await importRecords(database.db, smallDataset(), 'US');
    credentialId = (await findActiveCredential(database.db, hashToken(tokens.both)))!.id;
  });
  afterAll(() => database?.drop());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-spool-test-'));
    await db().transaction(async (tx) => {
      await tx.query(`SELECT set_config('lookup.access_audit_retention', 'on', true)`);
      await tx.query('DELETE FROM access_audit');
      await tx.query('DELETE FROM access_audit_spools');
    });
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it('writes each entry to the spool file before the response, ids only, and ships it once', async () => {
    const server = await startTestServer({ database, env: { AUDIT_SPOOL_DIR: dir } });
    try {
      const res = await server.call('POST', '/v1/persons/search', { token: tokens.both, body: { lastName: 'durand' } });
      expect(res.status).toBe(200);
      const [file] = spooledFiles();
      const spooled = readFileSync(join(dir, file!), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(spooled).toEqual([
        {
          at: res.body.asOf,
          credential_id: credentialId,
          operation: 'searchPersons',
          person_ids: `{${res.body.persons.map((p: { id: string }) => p.id).join(',')}}`,
          not_found_person_id: null,
          purpose: 'tests: reads every field group',
          fields: `{${everyField.join(',')}}`,
        },
      ]);
      await server.auditShipped();
      await server.auditShipped();
      expect(await count()).toBe(1);
    } finally {
      await server.close();
    }
    // Shut down: shipped, file and row gone.
    expect(spooledFiles()).toEqual([]);
    expect(await db().query('SELECT * FROM access_audit_spools')).toEqual([]);
  });

  it('a batch offered twice (a retry after a lost answer, or two shippers) is inserted once', async () => {
    const name = newSpoolName();
    await registerAuditSpool(db(), name);
    const batch = `[${line(1).trim()},${line(2).trim()}]`;
    const to = line(1).length + line(2).length;
    expect(await shipAuditSpoolBatch(db(), name, 0, to, batch)).toBe(true);
    expect(await shipAuditSpoolBatch(db(), name, 0, to, batch)).toBe(false);
    expect(await count()).toBe(2);
  });

  it('ships the purpose and field groups of each line, and a line spooled before they were recorded with neither', async () => {
    const name = newSpoolName();
    await registerAuditSpool(db(), name);
    const narrow = spoolLine({ ...entry(1), purpose: 'shift scheduling: "rota" \\ plans', fields: ['name', 'email'] });
    // As an instance of the release before wrote it: no purpose, no fields.
    const older = JSON.stringify({
      at: entry(2).at,
      credential_id: credentialId,
      operation: 'getPerson',
      person_ids: `{${ids.ana}}`,
      not_found_person_id: null,
    });
    expect(await shipAuditSpoolBatch(db(), name, 0, 2, `[${narrow},${older}]`)).toBe(true);
    expect(await db().query('SELECT purpose, fields FROM access_audit ORDER BY at')).toEqual([
      { purpose: 'shift scheduling: "rota" \\ plans', fields: ['name', 'email'] },
      { purpose: null, fields: null },
    ]);
  });

  it('ships every entry exactly once when shipping fails between batches', async () => {
    const shipper = await AuditShipper.start(db(), dir, logger, { ...manual, batchBytes: line(0).length * 2 });
    try {
      await Promise.all(Array.from({ length: 10 }, (_, i) => shipper.spool.append(entry(i))));
      // The database refuses the fourth batch's progress: batches one to three are in, the
      // fourth's entries are not (they commit with the progress, or not at all).
      await db().query(`CREATE FUNCTION refuse_spool_progress() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.shipped_bytes > ${line(0).length * 6} THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`);
      await db().query('CREATE TRIGGER refuse_spool_progress BEFORE UPDATE ON access_audit_spools FOR EACH ROW EXECUTE FUNCTION refuse_spool_progress()');
      try {
        await shipper.drain();
        expect(await count()).toBe(6);
      } finally {
        await db().query('DROP TRIGGER refuse_spool_progress ON access_audit_spools');
        await db().query('DROP FUNCTION refuse_spool_progress()');
      }
      await shipper.drain();
      await shipper.drain();
      const rows = await db().query<{ at: string }>(`SELECT to_json(at)#>>'{}' AS at FROM access_audit ORDER BY at`);
      expect(rows.map((r) => new Date(r.at).toISOString())).toEqual(Array.from({ length: 10 }, (_, i) => entry(i).at));
    } finally {
      await shipper.close();
    }
  });

  it('replaces a large file once it is fully shipped, and deletes the old one with its row', async () => {
    const shipper = await AuditShipper.start(db(), dir, logger, { ...manual, rotateBytes: line(0).length * 3 });
    try {
      const first = shipper.spool.current!.name;
      for (let i = 0; i < 4; i++) await shipper.spool.append(entry(i));
      await shipper.drain();
      const second = shipper.spool.current!.name;
      expect(second).not.toBe(first);
      expect(spooledFiles()).toEqual([second]);
      expect((await db().query<{ name: string }>('SELECT name FROM access_audit_spools')).map((r) => r.name)).toEqual([second]);
      await shipper.spool.append(entry(4));
      await shipper.drain();
      expect(await count()).toBe(5);
    } finally {
      await shipper.close();
    }
  });

  it('does not ship a last line whose write has not ended while its owner lives', async () => {
    const shipper = await AuditShipper.start(db(), dir, logger, manual);
    try {
      await shipper.spool.append(entry(1));
      // Half a line at the end of the file, as a write still under way leaves it.
      appendFileSync(join(dir, shipper.spool.current!.name), line(2).slice(0, 40));
      await shipper.drain();
      expect(await count()).toBe(1);
      const [row] = await db().query<{ shipped: string }>('SELECT shipped_bytes::text AS shipped FROM access_audit_spools');
      expect(Number(row!.shipped)).toBe(line(1).length);
    } finally {
      await shipper.close();
    }
  });

  it("adopts a dead instance's file: ships it from the recorded offset, drops its unfinished last line, deletes file and row", async () => {
    const live = await AuditShipper.start(db(), dir, logger, manual);
    // A dead instance's file: five lines, the first two already shipped, then half a line.
    const dead = newSpoolName();
    await registerAuditSpool(db(), dead);
    const lines = [1, 2, 3, 4, 5].map(line);
    writeFileSync(join(dir, dead), `${lines.join('')}${line(6).slice(0, 30)}`);
    expect(await shipAuditSpoolBatch(db(), dead, 0, lines[0]!.length + lines[1]!.length, `[${lines[0]!.trim()},${lines[1]!.trim()}]`)).toBe(true);
    // A live instance's file, and a file of another database (no row here): both left alone.
    await live.spool.append(entry(7));
    const foreign = newSpoolName();
    writeFileSync(join(dir, foreign), line(8));

    const adopter = await AuditShipper.start(db(), dir, logger, manual);
    try {
      await adopter.adopt();
      const ats = (await db().query<{ at: string }>(`SELECT to_json(at)#>>'{}' AS at FROM access_audit ORDER BY at`)).map((r) => new Date(r.at).toISOString());
      expect(ats).toEqual([1, 2, 3, 4, 5].map((i) => entry(i).at));
      expect(spooledFiles()).not.toContain(dead);
      expect(spooledFiles()).toContain(foreign);
      expect(spooledFiles()).toContain(live.spool.current!.name);
      expect((await db().query<{ name: string }>('SELECT name FROM access_audit_spools')).map((r) => r.name)).not.toContain(dead);
      await live.drain();
      expect(await count()).toBe(6);
    } finally {
      await adopter.close();
      await live.close();
    }
  });
});

describe.runIf(databaseUrl)('a spool that cannot be written', () => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase('postgres');
    await importRecords(database.db, demoDataset(), 'US');
  }, 120_000);
  afterAll(() => database?.drop());

  it('fails the request with 503 service_unavailable in the contract shape; every 200 has its entry, and only those', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-spool-full-'));
    // Files of at most 64 KiB: the spool file fills after a few dozen pages, as a full disk would.
    // A page of 45 people is a line of about 2 KB; the whole lines leave 1.8 KB of the file,
    // room for a 404's entry (about 360 bytes) below, unless a failed write left a part behind.
    const server = await startChildServer(
      { DATABASE_URL: database.url!, DEMO_DATA: 'false', RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000', AUDIT_SPOOL_DIR: dir },
      90_000,
      undefined,
      'ulimit -f 64',
    );
    try {
      const call = contractCall(server.url);
      const token = demoCredentials[0]!.token;
      const statuses: number[] = [];
      for (let i = 0; i < 80; i++) {
        const res = await call('POST', '/v1/persons/search', { token, body: { limit: 45, offset: i % 5 } });
        statuses.push(res.status);
        if (res.status !== 200) {
          expect(res.status).toBe(503);
          expect(res.body).toEqual({ error: 'service_unavailable' });
          expect(res.headers.get('retry-after')).toBe('1');
        }
      }
      const ok = statuses.filter((s) => s === 200).length;
      expect(ok).toBeGreaterThan(0);
      expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
      // A smaller entry still fits: the failed writes left no partial line behind.
      const got = await call('GET', `/v1/persons/00000000-0000-4000-8000-000000000000`, { token });
      expect(got.status).toBe(404);

      server.process.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
      const credentialId = (await findActiveCredential(database.db, hashToken(token)))!.id;
      const rows = await database.db.query<{ operation: string; n: number }>(
        'SELECT operation, count(*)::int AS n FROM access_audit WHERE credential_id = $1 GROUP BY operation ORDER BY operation',
        [credentialId],
      );
      expect(rows).toEqual([
        { operation: 'getPerson', n: 1 },
        { operation: 'searchPersons', n: ok },
      ]);
      expect(server.output()).not.toContain('unreadable');
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
