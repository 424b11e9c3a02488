// Data that changes, against the reference model, on each engine: random sequences of
// change files (upserts, renames, relinks and unlinks, company moves, re-dated people,
// per-employment records replaced and deleted, deletions, whole-company snapshots, and
// now and then a file the import must refuse). After every step, every search and Get
// person answer equals the model's, exact totals included, and every derived structure
// equals a rebuild from scratch. Steps alternate how the import reaches the stored rows
// (probed by key, or joined whole: server/db/import/reach.ts), so both stay exact; every
// sixth file restates much of the data, as a full export would. After every step Search
// employees is compared too: a relinked employment leaves its results, an unlinked one enters.
// The change feed is followed too: each step's changes are exactly what the data before and
// after it say (expectedChanges.ts), and a mirror kept from the feed over HTTP alone
// (feedMirror.ts) equals the model's employments in the broadest credential's companies.
// changes.model.test.ts (two sequences, in npm test) and
// changes.model.slow.test.ts (four more, in test:all) run it. A failure names its seed
// and step; replay it with SEED=<n> SEQUENCES=1 (STEPS=<m> to stop there).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../server/dataset/random.js';
import { derivedDataAndRebuild, readDerivedData } from '../../server/db/derived/index.js';
import { ImportRejected, importRecords } from '../../server/importing/index.js';
import type { EmployeeRecord, ImportRecord } from '../../server/importing/records.js';
import { asMultiset, changesAfter, dataState, expectedChanges, feedHead } from '../feed/expectedChanges.js';
import { FeedMirror } from '../feed/feedMirror.js';
import { engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { modelData, modelSearch, modelSearchEmployees } from './model.js';
import { ModelStore } from './modelStore.js';
import { firstNames, instants, lastNames, phones, randomDataset, randomEmployeeQuery, randomQuery, systems } from './randomDataset.js';

const e164Of = new Map(phones.flatMap((p) => p.formats.map((f) => [f, p.e164] as const)));

const kinds = ['membership', 'invitation', 'linkedUser', 'participation', 'coverage'] as const;

/** A random per-employment record of the employment `employeeId`. */
function kindRecord(r: Random, employeeId: string): ImportRecord {
  const kind = r.pick(kinds);
  return kind === 'membership'
    ? { type: kind, employeeId, status: r.pick(['active', 'revoked'] as const) }
    : kind === 'invitation'
      ? {
          type: kind,
          employeeId,
          status: r.pick(['pending', 'accepted'] as const),
          invitedAt: '2024-01-01T00:00:00.000Z',
          expiresAt: r.pick(['2024-02-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z']),
        }
      : kind === 'linkedUser'
        ? { type: kind, employeeId, status: r.pick(['active', 'deactivated'] as const) }
        : kind === 'participation'
          ? { type: kind, employeeId, decision: r.pick(['opt_in', null] as const), decidedAt: r.pick([null, instants[0]!]) }
          : {
              type: kind,
              employeeId,
              status: r.pick(['enrolled', 'waived'] as const),
              startsAt: r.pick(instants),
              endsAt: null,
              planTier: r.pick([null, 'family']),
            };
}

/**
 * One random change file against the model's state (`store`, which it moves along as it
 * writes, so that each operation sees the ones before it), and the snapshots it asks for;
 * `valid` false when the import must refuse it.
 */
function changeFile(r: Random, store: ModelStore, fixedCompanies: string[], step: number): { file: ImportRecord[]; snapshots: string[]; valid: boolean } {
  const written: ImportRecord[] = [];
  const snapshots: string[] = [];
  const employees = () => [...store.employees.values()];
  const personIds = () => [...store.persons.keys()];
  const companies = () => [...store.companies.keys()];
  const employee = (base: Partial<EmployeeRecord> & { id: string }): EmployeeRecord => ({
    type: 'employee',
    companyId: r.pick(companies()),
    personId: r.chance(0.85) && personIds().length ? r.pick(personIds()) : null,
    firstName: r.pick(firstNames),
    lastName: r.pick(lastNames),
    dateOfBirth: '1990-05-17',
    gender: r.pick([null, 'female', 'male']),
    email: `${base.id.slice(0, 8)}@example.com`,
    phone: r.pick(r.pick(phones).formats),
    address: { line1: '1 Main St', line2: r.pick([null, 'Apt 2']), city: 'Springfield', state: 'IL', postalCode: '62701' },
    externalIds: systems.filter(() => r.chance(0.4)).map((system) => ({ system, system_id: `${system}-${r.int(1, 99)}` })),
    createdAt: r.pick(instants),
    updatedAt: r.pick(instants),
    ...base,
  });
  const operations = r.int(1, 6);
  for (let o = 0; o < operations && !snapshots.length; o++) {
    const file: ImportRecord[] = [];
    const existing = employees();
    const pick = r.int(0, 14);
    if (pick === 0 || !existing.length) {
      // A new person with an employment or two (the person before or after them in the file).
      const person = { type: 'person' as const, id: r.uuid(), createdAt: r.pick(instants), updatedAt: r.pick(instants) };
      const jobs = Array.from({ length: r.int(1, 2) }, () => employee({ id: r.uuid(), personId: person.id }));
      file.push(...(r.chance(0.5) ? [person, ...jobs] : [...jobs, person]));
    } else if (pick === 1) {
      const e = r.pick(existing);
      file.push({ ...e, lastName: r.pick(lastNames), firstName: r.chance(0.5) ? r.pick(firstNames) : e.firstName }); // renamed
    } else if (pick === 2) {
      const e = r.pick(existing);
      file.push({ ...e, personId: r.chance(0.25) || !personIds().length ? null : r.pick(personIds()) }); // relinked or unlinked (no one left to link to)
    } else if (pick === 3) {
      const e = r.pick(existing);
      file.push({ ...e, companyId: r.pick(companies()) }); // moved
    } else if (pick === 4 && personIds().length) {
      const p = store.persons.get(r.pick(personIds()))!;
      file.push({ ...p, createdAt: r.pick(instants), updatedAt: r.pick(instants) }); // re-dated
    } else if (pick === 5) {
      const e = r.pick(existing);
      file.push({ type: 'delete', record: 'employee', id: e.id });
    } else if (pick === 6 && personIds().length) {
      // A person deleted, with each of their employments deleted or relinked in the same file.
      const id = r.pick(personIds());
      const others = personIds().filter((p) => p !== id);
      for (const e of existing.filter((e) => e.personId === id)) {
        file.push(r.chance(0.5) || !others.length ? { type: 'delete', record: 'employee', id: e.id } : { ...e, personId: r.pick(others) });
      }
      file.push({ type: 'delete', record: 'person', id });
    } else if (pick === 7) {
      file.push(kindRecord(r, r.pick(existing).id));
    } else if (pick === 8) {
      file.push({
        type: 'delete',
        record: r.pick(kinds),
        employeeId: r.pick(existing).id,
      });
    } else if (pick === 9) {
      // Already absent. (A drawn id can repeat one the dataset drew from the same seed.)
      const record = r.pick(['employee', 'person'] as const);
      let id = r.uuid();
      while (store.persons.has(id) || store.employees.has(id)) id = r.uuid();
      file.push({ type: 'delete', record, id });
    } else if (pick === 10) {
      // A whole-company snapshot (the file's last operation): some of its employments
      // restated (maybe changed), the rest deleted.
      const company = r.pick(companies());
      snapshots.push(company);
      // (An employment the file already gave a per-employment record is restated: the
      // snapshot would delete it, and that record would then name an absent employment.)
      const named = (id: string) => written.some((x) => x.type !== 'delete' && 'employeeId' in x && x.employeeId === id);
      for (const e of existing.filter((e) => e.companyId === company))
        if (named(e.id) || r.chance(0.6)) file.push(r.chance(0.3) ? { ...e, lastName: r.pick(lastNames) } : e);
      if (r.chance(0.5)) file.push(employee({ id: r.uuid(), companyId: company }));
    } else if (pick === 11) {
      // A new company, with people; or an unused one deleted with its employments.
      const spare = companies().filter((c) => !fixedCompanies.includes(c));
      if (spare.length && r.chance(0.5)) {
        const company = r.pick(spare);
        for (const e of existing.filter((e) => e.companyId === company)) file.push({ type: 'delete', record: 'employee', id: e.id });
        file.push({ type: 'delete', record: 'company', id: company });
      } else {
        const company = `s-new-${step}-${o}`;
        file.push({ type: 'company', id: company, name: company });
        store.apply(file);
        file.push(employee({ id: r.uuid(), companyId: company }));
      }
    } else if (pick === 12) {
      file.push(r.pick(existing)); // restated unchanged
    } else if (pick === 13) {
      // An employment restated with its per-employment records after it, as a dump lists
      // them (maybe one kind twice, or one deleted), and now and then the employee again.
      const e = r.pick(existing);
      file.push(r.chance(0.5) ? e : { ...e, lastName: r.pick(lastNames) });
      for (let k = r.int(1, 3); k > 0; k--) file.push(r.chance(0.2) ? { type: 'delete', record: r.pick(kinds), employeeId: e.id } : kindRecord(r, e.id));
      if (r.chance(0.25)) file.push(r.chance(0.5) ? { ...e, firstName: r.pick(firstNames) } : kindRecord(r, e.id));
    } else {
      file.push(employee({ id: r.uuid() }));
    }
    store.apply(file);
    written.push(...file);
  }
  const file = written;
  // Now and then a file the import must refuse whole: it deletes a person someone still names.
  if (r.chance(0.12)) {
    // (Named by an employment the file keeps: not restated in it, nor dropped by its snapshot.)
    const named = employees().filter(
      (e) => e.personId !== null && !file.some((x) => x.type === 'employee' && x.id === e.id) && !snapshots.includes(e.companyId),
    );
    if (named.length) {
      file.push({ type: 'delete', record: 'person', id: r.pick(named).personId! });
      return { file, snapshots, valid: false };
    }
  }
  return { file, snapshots, valid: true };
}

/**
 * A file that restates much of the stored data as a source's full export lists it: each
 * employment followed by the records it holds. Most are unchanged; some change a field or
 * a record, list a record twice, or leave one out (which keeps it); now and then one is
 * new. It deletes nothing, so a file joined whole compares digests first (resolve.ts).
 */
function dumpFile(r: Random, store: ModelStore): ImportRecord[] {
  const file: ImportRecord[] = [...store.companies.values(), ...[...store.persons.values()].filter(() => r.chance(0.5))];
  for (const e of store.employees.values()) {
    if (!r.chance(0.8)) continue;
    file.push(r.chance(0.1) ? { ...e, lastName: r.pick(lastNames) } : r.chance(0.05) ? { ...e, email: `moved.${e.email}` } : e);
    for (const kind of kinds) {
      const held = store.records[kind].get(e.id);
      if (held && r.chance(0.9)) file.push(held);
    }
    if (r.chance(0.1)) file.push(kindRecord(r, e.id));
  }
  if (r.chance(0.5) && store.persons.size) {
    const id = r.uuid();
    file.push({ ...[...store.employees.values()][0]!, id, personId: r.pick([...store.persons.keys()]) });
  }
  return file;
}

/** `sequences` random sequences from seed `firstSeed` on, of `steps` change files each, `queries` searches after each. */
export function changesAgainstModel({
  firstSeed,
  sequences: SEQUENCES,
  steps: STEPS,
  queries: QUERIES,
}: {
  firstSeed: number;
  sequences: number;
  steps: number;
  queries: number;
}): void {
  describe.each(engines)('changes against the reference model on %s', (engine) => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ engine });
    });
    afterAll(() => server?.close());

    it(`over ${SEQUENCES} sequences from seed ${firstSeed} × ${STEPS} change files`, async () => {
      const db = server.database.db;
      for (let seed = firstSeed; seed < firstSeed + SEQUENCES; seed++) {
        // A stream apart from the dataset's (new Random(seed)), so that no change file replays its ids.
        const r = new Random(seed + 0x5eed0000);
        const dataset = randomDataset(seed);
        await db.query('TRUNCATE companies, persons, employees, credentials, credential_companies');
        await importRecords(db, dataset.records, 'US');
        let store = new ModelStore();
        store.apply(dataset.records);
        const credentialed = [...new Set(dataset.credentials.flatMap((c) => [...c.companies]))];
        // (A new follower each sequence: the TRUNCATE above emptied the feed, so an old place would be 410.)
        const every = dataset.credentials.at(-1)!;
        const mirror = new FeedMirror(server.call, every.token, 25);

        for (let step = 1; step <= STEPS; step++) {
          const context = `seed ${seed}, step ${step}`;
          const { file, snapshots, valid } =
            step % 6 === 0 ? { file: dumpFile(r, store), snapshots: [], valid: true } : changeFile(r, store.clone(), credentialed, step);
          const next = store.clone();
          const before = valid ? undefined : await readDerivedData(db);
          const [dataBefore, head] = [await dataState(db), await feedHead(db)];
          const outcome = await importRecords(db, file, { defaultPhoneRegion: 'US', snapshotCompanies: snapshots, reach: step % 2 ? 'probe' : 'join' }).then(
            () => 'applied',
            (e) => e,
          );
          if (valid) {
            expect(outcome, `${context}: ${JSON.stringify(file)}`).toBe('applied');
            next.apply(file, snapshots);
            expect(next.consistent(), `${context}: the generator wrote an inconsistent file`).toBe(true);
            store = next;
          } else {
            expect(outcome, context).toBeInstanceOf(ImportRejected);
            expect(await readDerivedData(db), `${context}: a refused file left derived data as it was`).toEqual(before);
          }

          const recorded = await changesAfter(db, head);
          expect(asMultiset(recorded), `${context}: the feed holds the step's changes`).toEqual(asMultiset(expectedChanges(dataBefore, await dataState(db))));
          await mirror.follow(every.companies);
          const modelled = [...store.employees.values()]
            .filter((e) => every.companies.has(e.companyId))
            .map((e) => [e.id, { companyId: e.companyId, personId: e.personId }])
            .sort(([a], [b]) => String(a).localeCompare(String(b)));
          expect(mirror.of(every.companies), `${context}: the mirror kept from the feed`).toEqual(modelled);

          const { kept, rebuilt } = await derivedDataAndRebuild(db);
          expect(kept, `${context}: derived data equals a rebuild from scratch`).toEqual(rebuilt);

          const data = modelData(store.asRecords(), (phone) => e164Of.get(phone)!);
          const view = { ...dataset, companies: [...store.companies.keys()], persons: [...store.persons.keys()] };
          for (let q = 0; q < QUERIES; q++) {
            const credential = r.pick(dataset.credentials);
            const { body, model } = randomQuery(seed * 1000 + step * 50 + q, view);
            const res = await server.call('POST', '/v1/persons/search', { token: credential.token, body });
            const where = `${context}, query ${q}: ${JSON.stringify(body)} as [${[...credential.companies]}]`;
            expect(res.status, where).toBe(200);
            const { asOf, ...rest } = res.body;
            expect(rest, where).toEqual(modelSearch(data, credential.companies, model, asOf));
          }
          // Search employees after the change: every unlinked record the broadest credential
          // sees (an employment that gained a person has left, one that lost it has entered),
          // then a few random searches.
          const listed = await server.call('POST', '/v1/employees/search', { token: every.token, body: { limit: 100 } });
          expect(listed.status, `${context}: employees`).toBe(200);
          const { asOf: listedAsOf, ...listedPage } = listed.body;
          expect(listedPage, `${context}: every unlinked record`).toEqual(modelSearchEmployees(data, every.companies, { limit: 100 }, listedAsOf));
          for (let q = 0; q < Math.ceil(QUERIES / 2); q++) {
            // (Drawn apart from `r`, so that the change files stay what they were.)
            const credential = new Random(seed * 7919 + step * 50 + q).pick(dataset.credentials);
            const { body, model } = randomEmployeeQuery(seed * 1000 + step * 50 + q + 25, view);
            const res = await server.call('POST', '/v1/employees/search', { token: credential.token, body });
            const where = `${context}, employees query ${q}: ${JSON.stringify(body)} as [${[...credential.companies]}]`;
            expect(res.status, where).toBe(200);
            const { asOf, ...rest } = res.body;
            expect(rest, where).toEqual(modelSearchEmployees(data, credential.companies, model, asOf));
          }
          for (const personId of [r.pick([...view.persons, r.uuid()]), r.pick([...view.persons, r.uuid()])]) {
            const credential = r.pick(dataset.credentials);
            const got = await server.call('GET', `/v1/persons/${personId}`, { token: credential.token });
            const expected = modelSearch(data, credential.companies, { personId }, got.body.asOf ?? new Date().toISOString());
            if (expected.persons.length === 0) expect(got.status, `${context}: get ${personId}`).toBe(404);
            else expect(got.body.person, `${context}: get ${personId}`).toEqual(expected.persons[0]);
          }
        }
      }
    }, 600_000);
  });
}
