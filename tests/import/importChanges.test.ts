// The operator's contract for data that changes (server/importing/FORMAT.md), on each
// engine: upsert by id, every field may change, per-employment records replaced and
// deleted, deletions (already absent counted), whole-company snapshots, file order, the
// summary per record type, and a refused file naming its first 100 problems and the count.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedDataAndRebuild } from '../../server/db/derived/index.js';
import { ImportRejected, type ImportSummary, importFile, importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { employee, ids, smallDataset, tokens } from '../fixtures/small.js';
import { engines, useThrowawayDatabase } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { storedRecordCounts } from '../helpers/storedCounts.js';

const none = { added: 0, changed: 0, unchanged: 0, deleted: 0, already_absent: 0 };
const counts = (summary: ImportSummary) =>
  Object.fromEntries(Object.entries(summary).filter(([_k, v]) => typeof v === 'object' && JSON.stringify(v) !== JSON.stringify(none)));

describe.each(engines)('an import that changes stored data on %s', (engine) => {
  let server: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'import-changes-'));
  beforeAll(async () => {
    server = await startTestServer({ engine, records: smallDataset() });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const db = () => server.database.db;
  const apply = (records: ImportRecord[], snapshotCompanies?: string[]) => importRecords(db(), records, { defaultPhoneRegion: 'US', snapshotCompanies });
  const search = async (body: object, token = tokens.both) => (await server.call('POST', '/v1/persons/search', { token, body })).body;
  const expectDerivedDataExact = async () => {
    const { kept, rebuilt } = await derivedDataAndRebuild(db());
    expect(kept).toEqual(rebuilt);
  };

  it('applies the same file twice as once: the second run changes nothing and says so', async () => {
    const summary = await apply(smallDataset());
    expect(counts(summary)).toEqual({
      company: { ...none, unchanged: 3 },
      person: { ...none, unchanged: 3 },
      employee: { ...none, unchanged: 6 },
      membership: { ...none, unchanged: 1 },
      invitation: { ...none, unchanged: 1 },
      participation: { ...none, unchanged: 1 },
      coverage: { ...none, unchanged: 1 },
      credential: { ...none, unchanged: 3 },
    });
  });

  it('compares a full export with what is stored: writes only what differs, keeps a record it leaves out', async () => {
    // As a source's export lists them: each employment with its records right after it.
    const dataset = smallDataset();
    const records = (id: string) => dataset.filter((r) => 'employeeId' in r && r.employeeId === id && r.type !== 'membership');
    const dump = dataset.flatMap((r) =>
      r.type === 'employee' ? [r.id === ids.anaAcme ? { ...r, email: 'ana.moved@example.com' } : r, ...records(r.id)] : 'employeeId' in r ? [] : [r],
    );
    const before = (await search({ personId: ids.emile })).persons[0];
    const summary = await importRecords(db(), dump, { defaultPhoneRegion: 'US', reach: 'join' });
    expect(counts(summary)).toEqual({
      company: { ...none, unchanged: 3 },
      person: { ...none, unchanged: 3 },
      employee: { ...none, changed: 1, unchanged: 5 },
      invitation: { ...none, unchanged: 1 },
      participation: { ...none, unchanged: 1 },
      coverage: { ...none, unchanged: 1 },
      credential: { ...none, unchanged: 3 },
    });
    // The membership the export left out is kept: Emile is as he was.
    expect((await search({ personId: ids.emile })).persons[0]).toEqual(before);
    const ana = (await search({ personId: ids.ana })).persons[0];
    expect(ana.employments.find((e: any) => e.id === ids.anaAcme).contact.email).toBe('ana.moved@example.com');
    await expectDerivedDataExact();
    await apply(smallDataset());
  });

  it('links an unlinked employment once identity is resolved, and renames it, in one record that replaces it whole', async () => {
    const [unlinked] = smallDataset().filter((r) => r.type === 'employee' && r.id === ids.unlinked) as ImportRecord[];
    const summary = await apply([{ ...(unlinked as any), personId: ids.ana, lastName: 'Straße', phone: '+1 312 555 0187' }]);
    expect(counts(summary)).toEqual({ employee: { ...none, changed: 1 } });
    const ana = (await search({ personId: ids.ana })).persons[0];
    expect(ana.employments.map((e: any) => [e.id, e.demographics.lastName])).toEqual([
      [ids.anaAcme, 'Durán'],
      [ids.unlinked, 'Straße'],
    ]);
    expect((await search({ lastName: 'STRASSE' })).persons.map((p: any) => p.id)).toEqual([ids.ana]);
    await expectDerivedDataExact();
  });

  it('moves an employment to another company and person, and re-dates a person (createdAt may change)', async () => {
    const moved = employee({ id: ids.unlinked, companyId: 'globex', personId: ids.emile, firstName: 'Émile', lastName: 'Durand' });
    const summary = await apply([moved, { type: 'person', id: ids.ana, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-02T00:00:00.000Z' }]);
    expect(counts(summary)).toEqual({ employee: { ...none, changed: 1 }, person: { ...none, changed: 1 } });
    const listed = await search({});
    expect(listed.persons.map((p: any) => [p.id, p.createdAt])).toEqual([
      [ids.emile, '2024-03-02T09:15:00.000Z'],
      [ids.ana, '2025-01-01T00:00:00.000Z'],
    ]);
    expect(listed.persons[0].employments.map((e: any) => e.id)).toContain(ids.unlinked);
    expect((await search({ createdFrom: '2025-01-01T00:00:00Z' })).pagination.total).toBe(1);
    await expectDerivedDataExact();
  });

  it('replaces a per-employment record and deletes one, counting one already absent', async () => {
    const summary = await apply([
      { type: 'coverage', employeeId: ids.emileGlobex, status: 'enrolled', startsAt: '2025-01-01T00:00:00.000Z', endsAt: null, planTier: 'family' },
      { type: 'delete', record: 'membership', employeeId: ids.emileAcme },
      { type: 'delete', record: 'linkedUser', employeeId: ids.emileAcme },
      { type: 'invitation', employeeId: ids.anaAcme, status: 'pending', invitedAt: '2025-01-01T00:00:00.000Z', expiresAt: '2099-01-01T00:00:00.000Z' },
    ]);
    expect(counts(summary)).toEqual({
      coverage: { ...none, changed: 1 },
      membership: { ...none, deleted: 1 },
      linkedUser: { ...none, already_absent: 1 },
      invitation: { ...none, added: 1 },
    });
    const emile = (await search({ personId: ids.emile })).persons[0];
    const byId = Object.fromEntries(emile.employments.map((e: any) => [e.id, e]));
    expect(byId[ids.emileGlobex].coverage).toEqual({ status: 'enrolled', startsAt: '2025-01-01T00:00:00.000Z', endsAt: null, planTier: 'family' });
    expect(byId[ids.emileAcme].membership).toEqual({ status: 'not_invited', invitation: null });
    expect((await search({ personId: ids.ana })).persons[0].employments[0].membership.status).toBe('invited_pending');
  });

  it('applies records in file order, a later one for the same id winning, people before or after their employments', async () => {
    const person = '11111111-2222-4333-8444-000000000001';
    const job = '11111111-2222-4333-8444-0000000000e1';
    const summary = await apply([
      employee({ id: job, companyId: 'acme-corp', personId: person, lastName: 'First' }),
      { type: 'membership', employeeId: job, status: 'active' },
      employee({ id: job, companyId: 'acme-corp', personId: person, lastName: 'Second' }),
      { type: 'membership', employeeId: job, status: 'revoked' },
      { type: 'person', id: person, createdAt: '2024-06-01T00:00:00.000Z', updatedAt: '2024-06-01T00:00:00.000Z' },
    ]);
    expect(counts(summary)).toEqual({ person: { ...none, added: 1 }, employee: { ...none, added: 1 }, membership: { ...none, added: 1 } });
    const [found] = (await search({ personId: person })).persons;
    expect(found.employments.map((e: any) => [e.demographics.lastName, e.membership.status])).toEqual([['Second', 'revoked_access']]);
    // A delete then a re-add: the employment comes back without the records it had.
    await apply([{ type: 'delete', record: 'employee', id: job }, employee({ id: job, companyId: 'acme-corp', personId: person, lastName: 'Third' })]);
    expect((await search({ personId: person })).persons[0].employments.map((e: any) => [e.demographics.lastName, e.membership.status])).toEqual([
      ['Third', 'not_invited'],
    ]);
  });

  it("orders an employment's records by line, those listed with their employee record and those elsewhere alike", async () => {
    const person = '11111111-2222-4333-8444-000000000002';
    const job = '11111111-2222-4333-8444-0000000000e2';
    const other = '11111111-2222-4333-8444-0000000000e3';
    const summary = await apply([
      { type: 'person', id: person, createdAt: '2024-06-01T00:00:00.000Z', updatedAt: '2024-06-01T00:00:00.000Z' },
      employee({ id: job, companyId: 'acme-corp', personId: person, lastName: 'Listed' }),
      { type: 'membership', employeeId: job, status: 'active' },
      { type: 'linkedUser', employeeId: job, status: 'active' },
      employee({ id: other, companyId: 'acme-corp', personId: person, lastName: 'Between' }),
      // Later than the ones listed with the employee: these win.
      { type: 'membership', employeeId: job, status: 'revoked' },
      { type: 'delete', record: 'linkedUser', employeeId: job },
    ]);
    expect(counts(summary)).toEqual({
      person: { ...none, added: 1 },
      employee: { ...none, added: 2 },
      membership: { ...none, added: 1 },
      linkedUser: { ...none, already_absent: 1 },
    });
    const [found] = (await search({ personId: person })).persons;
    const listed = found.employments.find((e: any) => e.id === job);
    expect(listed.membership.status).toBe('revoked_access');
    expect(listed).not.toHaveProperty('linkedUser');
    // Listed with its employee record, then the employment deleted further on: gone, records and all.
    await apply([
      employee({ id: job, companyId: 'acme-corp', personId: person }),
      { type: 'coverage', employeeId: job, status: 'enrolled', startsAt: '2024-01-01T00:00:00.000Z', endsAt: null, planTier: null },
      { type: 'delete', record: 'employee', id: job },
    ]);
    expect((await search({ personId: person })).persons[0].employments.map((e: any) => e.id)).toEqual([other]);
  });

  it('takes records of several kinds listed apart from their employee record, each employment once', async () => {
    const person = '11111111-2222-4333-8444-000000000004';
    const job = '11111111-2222-4333-8444-0000000000e5';
    const other = '11111111-2222-4333-8444-0000000000e6';
    // Each employee record alone on its line; the kinds after them, in no kind's order, and
    // not every kind for each employment.
    const summary = await apply([
      { type: 'person', id: person, createdAt: '2024-06-01T00:00:00.000Z', updatedAt: '2024-06-01T00:00:00.000Z' },
      employee({ id: job, companyId: 'acme-corp', personId: person, lastName: 'Apart' }),
      employee({ id: other, companyId: 'acme-corp', personId: person, lastName: 'Aside' }),
      { type: 'coverage', employeeId: job, status: 'enrolled', startsAt: '2024-01-01T00:00:00.000Z', endsAt: null, planTier: null },
      { type: 'invitation', employeeId: job, status: 'pending', invitedAt: '2025-01-01T00:00:00.000Z', expiresAt: '2099-01-01T00:00:00.000Z' },
      { type: 'coverage', employeeId: other, status: 'waived', startsAt: '2024-01-01T00:00:00.000Z', endsAt: null, planTier: null },
      { type: 'linkedUser', employeeId: other, status: 'deactivated' },
    ]);
    expect(counts(summary)).toEqual({
      person: { ...none, added: 1 },
      employee: { ...none, added: 2 },
      invitation: { ...none, added: 1 },
      linkedUser: { ...none, added: 1 },
      coverage: { ...none, added: 2 },
    });
    const [found] = (await search({ personId: person })).persons;
    const byId = Object.fromEntries(found.employments.map((e: any) => [e.id, e]));
    expect(Object.keys(byId).sort()).toEqual([job, other]);
    expect(byId[job].membership.status).toBe('invited_pending');
    expect(byId[job].coverage).toEqual({ status: 'enrolled', startsAt: '2024-01-01T00:00:00.000Z', endsAt: null, planTier: null });
    expect(byId[other].coverage.status).toBe('waived');
    // (A deactivated linked user, and no membership: access revoked.)
    expect(byId[other].membership.status).toBe('revoked_access');
    await expectDerivedDataExact();
  });

  it('deletes a person with their employments in one file; deleting again counts them already absent', async () => {
    const person = '11111111-2222-4333-8444-000000000001';
    const job = '11111111-2222-4333-8444-0000000000e1';
    const deletion: ImportRecord[] = [
      { type: 'delete', record: 'person', id: person },
      { type: 'delete', record: 'employee', id: job },
    ];
    expect(counts(await apply(deletion))).toEqual({ person: { ...none, deleted: 1 }, employee: { ...none, deleted: 1 } });
    expect(counts(await apply(deletion))).toEqual({ person: { ...none, already_absent: 1 }, employee: { ...none, already_absent: 1 } });
    expect((await server.call('GET', `/v1/persons/${person}`, { token: tokens.both })).status).toBe(404);
    await expectDerivedDataExact();
  });

  it('treats a file as the whole truth of a snapshot company: its employments the file lacks are deleted, others untouched', async () => {
    const before = await db().query<{ id: string }>(`SELECT id::text FROM employees WHERE company_id = 'acme-corp' ORDER BY id`);
    expect(before.length).toBeGreaterThan(1);
    const kept = before[0]!.id;
    const [stored] = await db().query<any>('SELECT company_id, person_id::text, first_name, last_name, phone FROM employees WHERE id = $1', [kept]);
    const file = join(dir, 'acme.ndjson');
    writeFileSync(
      file,
      `${JSON.stringify(employee({ id: kept, companyId: 'acme-corp', personId: stored.person_id, firstName: stored.first_name, lastName: stored.last_name, phone: stored.phone }))}\n`,
    );
    const summary = await importFile(db(), file, { defaultPhoneRegion: 'US', snapshotCompanies: ['acme-corp'] });
    expect(summary.employee.deleted).toBe(before.length - 1);
    expect(await db().query(`SELECT id::text FROM employees WHERE company_id = 'acme-corp'`)).toEqual([{ id: kept }]);
    expect((await db().query(`SELECT count(*)::int AS n FROM employees WHERE company_id = 'globex'`))[0]).toEqual({ n: 2 });
    await expectDerivedDataExact();
  });

  it('refuses a snapshot of an unknown company, and writes nothing', async () => {
    const before = await storedRecordCounts(db());
    const error = await apply([], ['no-such-co']).then(
      () => undefined,
      (e) => e,
    );
    expect(error).toBeInstanceOf(ImportRejected);
    expect(error.problems).toEqual([
      { line: 0, record: '--snapshot no-such-co', message: 'unknown company no-such-co: not in this import nor in the database' },
    ]);
    expect(await storedRecordCounts(db())).toEqual(before);
  });

  it('lists the first 100 problems by line, and counts them all', async () => {
    const before = await storedRecordCounts(db());
    const bad = Array.from(
      { length: 250 },
      (_, i): ImportRecord => employee({ id: `22222222-2222-4222-8222-${String(i).padStart(12, '0')}`, companyId: 'nowhere-inc', personId: null }),
    );
    const error = (await apply(bad).then(
      () => undefined,
      (e) => e,
    )) as ImportRejected;
    expect(error).toBeInstanceOf(ImportRejected);
    expect(error.total).toBe(250);
    expect(error.problems.map((p) => p.line)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(await storedRecordCounts(db())).toEqual(before);
  });

  it('reads a JSON array file as a stream, naming records by their position', async () => {
    const file = join(dir, 'array.json');
    writeFileSync(
      file,
      JSON.stringify([
        { type: 'company', id: 'array-co', name: 'A' },
        { type: 'company', id: 'bad id', name: 'B' },
      ]),
    );
    const error = (await importFile(db(), file, { defaultPhoneRegion: 'US' }).then(
      () => undefined,
      (e) => e,
    )) as ImportRejected;
    expect(error.problems.map((p) => [p.line, p.record])).toEqual([[2, 'company bad id']]);
  });
});

describe.each(engines)('deleting at the source on %s', (engine) => {
  const database = useThrowawayDatabase(engine);

  it('deletes a company once its employments go and no credential names it; a name only its people bore leaves the dictionaries', async () => {
    const gone = await importRecords(
      database.db,
      [
        { type: 'delete', record: 'employee', id: ids.emileSecret },
        { type: 'delete', record: 'employee', id: ids.hiddenSecret },
        { type: 'delete', record: 'person', id: ids.hidden },
        { type: 'delete', record: 'company', id: 'secret-co' },
      ],
      'US',
    );
    expect(gone.company.deleted).toBe(1);
    expect(await database.db.query(`SELECT folded FROM last_name_dictionary WHERE folded = 'secretive'`)).toEqual([]);
    expect(await database.db.query(`SELECT count(*)::int AS n FROM last_name_pieces WHERE last_name_folded = 'secretive'`)).toEqual([{ n: 0 }]);
    const { kept, rebuilt } = await derivedDataAndRebuild(database.db);
    expect(kept).toEqual(rebuilt);
  });
});
