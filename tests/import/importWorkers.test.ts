// An NDJSON file is checked in worker threads, in pieces (server/importing/workers.ts).
// Cut into many small pieces over two workers, a file comes to exactly what one thread
// makes of it: the same stored data and summary, the same problems with the same lines
// (the first 100, and how many), unparsable lines among them. A worker that fails fails the
// import, and nothing is written.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ImportRejected, importFile, importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { employee, smallDataset } from '../fixtures/small.js';
import { engines, throwawayDatabase } from '../helpers/databases.js';
import { databaseFingerprint } from '../helpers/storedCounts.js';

const inPieces = { workers: 2, pieceBytes: 2048 };

/** A few hundred people with employments and their records: many pieces of 2 KB. */
function manyRecords(): ImportRecord[] {
  const records: ImportRecord[] = [...smallDataset()];
  for (let i = 0; i < 300; i++) {
    const person = randomUUID();
    const id = randomUUID();
    records.push({ type: 'person', id: person, createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-02-01T00:00:00Z' });
    records.push(
      employee({
        id,
        companyId: i % 2 ? 'acme-corp' : 'globex',
        personId: person,
        lastName: `Ωμέγα ${i} 東京`,
        phone: `+1415555${String(i).padStart(4, '0')}`,
      }),
    );
    records.push({ type: 'coverage', employeeId: id, status: 'enrolled', startsAt: '2025-01-01T00:00:00Z', endsAt: null, planTier: null });
  }
  return records;
}

describe.each(engines)('an NDJSON file checked in workers, on %s', { timeout: 180_000 }, (engine) => {
  const dir = mkdtempSync(join(tmpdir(), 'import-workers-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, lines: string[]) => {
    const path = join(dir, name);
    writeFileSync(path, lines.join('\n'));
    return path;
  };

  it('comes to the same data and summary as in one thread', async () => {
    // (Without credentials: a new one's id and times are drawn when it is stored.)
    const records = manyRecords().filter((r) => r.type !== 'credential');
    const path = write(
      'valid.ndjson',
      records.map((r) => JSON.stringify(r)),
    );
    const one = await throwawayDatabase(engine);
    const two = await throwawayDatabase(engine);
    try {
      const inThread = await importFile(one.db, path, { defaultPhoneRegion: 'US', workers: false });
      const inWorkers = await importFile(two.db, path, { defaultPhoneRegion: 'US', workers: inPieces });
      expect(inWorkers).toEqual(inThread);
      expect(inWorkers.employee.added).toBe(300 + smallDataset().filter((r) => r.type === 'employee').length);
      expect(await databaseFingerprint(two.db)).toEqual(await databaseFingerprint(one.db));
    } finally {
      await one.drop();
      await two.drop();
    }
  });

  it('names the same problems, with their lines, as one thread does', async () => {
    const lines = manyRecords().map((r) => JSON.stringify(r));
    // Problems all through the file: bad phones, strings no database text holds (in the
    // file only as \u escapes), unknown references, a bad field; more than 100 in all.
    let employees = 0;
    for (let i = 20; i < lines.length; i += 7) {
      const record = JSON.parse(lines[i]!);
      if (record.type === 'employee') {
        const which = employees++ % 3;
        if (which === 0) record.phone = 'call me';
        else if (which === 1) record.lastName = 'Nul\u0000l';
        else record.externalIds = [{ system: 'hris', system_id: 'E-\ud800' }];
      } else if (record.type === 'coverage') record.employeeId = randomUUID();
      else record.unexpected = true;
      lines[i] = JSON.stringify(record);
    }
    const path = write('problems.ndjson', lines);
    const database = await throwawayDatabase(engine);
    try {
      const before = await databaseFingerprint(database.db);
      const rejection = (workers: false | typeof inPieces) =>
        importFile(database.db, path, { defaultPhoneRegion: 'US', workers }).then(
          () => undefined,
          (error) => error as ImportRejected,
        );
      const inThread = await rejection(false);
      const inWorkers = await rejection(inPieces);
      expect(inThread).toBeInstanceOf(ImportRejected);
      expect(inWorkers).toBeInstanceOf(ImportRejected);
      expect(inWorkers!.total).toBe(inThread!.total);
      expect(inWorkers!.total).toBeGreaterThan(100);
      expect(inWorkers!.problems).toEqual(inThread!.problems);
      expect(inWorkers!.problems).toHaveLength(100);
      const messages = inWorkers!.problems.map((p) => p.message).join('\n');
      for (const expected of ['cannot be parsed', 'must not contain the character U+0000', 'must be well-formed Unicode']) expect(messages).toContain(expected);
      // Each names its own line (lines count from 1).
      for (const p of inWorkers!.problems) expect(p.record).toContain(JSON.parse(lines[p.line - 1]!).id ?? JSON.parse(lines[p.line - 1]!).employeeId);
      expect(await databaseFingerprint(database.db)).toEqual(before);
    } finally {
      await database.drop();
    }
  });

  it('names unparsable lines far into the file by their lines', async () => {
    const lines = manyRecords().map((r) => JSON.stringify(r));
    lines[700] = '{"type":"company", not json';
    lines[851] = '';
    lines[852] = '{';
    const path = write('unparsable.ndjson', lines);
    const database = await throwawayDatabase(engine);
    try {
      const error = await importFile(database.db, path, { defaultPhoneRegion: 'US', workers: inPieces }).catch((e) => e);
      expect(error).toBeInstanceOf(ImportRejected);
      // (Line 701 held a person: the employment on line 702 now names an unknown one, and says so too.)
      expect(error.problems).toEqual([
        { line: 701, record: '', message: 'not valid JSON at column 20: Expected double-quoted property name' },
        {
          line: 702,
          record: expect.stringMatching(/^employee /),
          message: expect.stringMatching(/^unknown person .*: not in this import nor in the database$/),
        },
        { line: 853, record: '', message: "not valid JSON at column 2: Expected property name or '}'" },
      ]);
    } finally {
      await database.drop();
    }
  });

  it('fails, writing nothing, when a worker fails', async () => {
    const path = write(
      'fails.ndjson',
      manyRecords().map((r) => JSON.stringify(r)),
    );
    const database = await throwawayDatabase(engine);
    try {
      await importRecords(database.db, smallDataset(), 'US');
      const before = await databaseFingerprint(database.db);
      const error = await importFile(database.db, path, { defaultPhoneRegion: 'US', workers: { ...inPieces, failOnPiece: 5 } }).catch((e) => e);
      expect(error).toBeInstanceOf(Error);
      expect(String(error.message)).toContain('check worker failed on its piece 5');
      expect(await databaseFingerprint(database.db)).toEqual(before);
      // The database is usable after it: the same file imports.
      const summary = await importFile(database.db, path, { defaultPhoneRegion: 'US', workers: inPieces });
      expect(summary.employee.added).toBe(300);
    } finally {
      await database.drop();
    }
  });
});
