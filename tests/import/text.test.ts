// An import file is UTF-8 text or it is refused, and every problem of a file is listed:
// a line that is not UTF-8 or not JSON, or longer than 4 MiB, is one problem among the
// others, named by its line (and byte offset, or column); a JSON array that does not parse
// names where it stops; nothing is written and nothing is ever stored with U+FFFD the file
// did not hold. On each engine, read in the import's thread and in check workers alike.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportParseError, ImportRejected, importFile } from '../../server/importing/index.js';
import { MAX_LINE_BYTES } from '../../server/importing/read.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { databaseFingerprint } from '../helpers/storedCounts.js';

const dir = mkdtempSync(join(tmpdir(), 'import-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function write(content: string | Buffer): string {
  const path = join(dir, `file-${++files}`);
  writeFileSync(path, content);
  return path;
}
const company = (id: string, name: string) => JSON.stringify({ type: 'company', id, name });
const utf8 = (text: string) => Buffer.from(text, 'utf8');
const latin1 = (text: string) => Buffer.from(text, 'latin1');

describe.each(engines)('import file text, on %s', (engine) => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase(engine);
  });
  afterAll(() => database.drop());

  /** The import's rejection, with the database checked unchanged by it. */
  async function rejection(path: string, workers?: { workers: number; pieceBytes?: number }): Promise<ImportRejected | ImportParseError> {
    const before = await databaseFingerprint(database.db);
    const error = await importFile(database.db, path, { defaultPhoneRegion: 'US', workers }).catch((e) => e);
    expect(await databaseFingerprint(database.db)).toEqual(before);
    if (!(error instanceof ImportRejected || error instanceof ImportParseError)) throw error ?? new Error('the import went through');
    return error;
  }
  const storedName = async (id: string) => (await database.db.query<{ name: string }>('SELECT name FROM companies WHERE id = $1', [id]))[0]?.name;

  for (const [how, workers] of [
    ['in the import thread', undefined],
    ['in a check worker', { workers: 1, pieceBytes: 64 }],
  ] as const) {
    it(`refuses a Latin-1 line by its line and byte offset, listing the other lines' problems too (${how})`, async () => {
      const first = `${company('text-ok', 'Émile & Co')}\n`;
      const path = write(
        Buffer.concat([
          utf8(first),
          latin1(`${company('text-latin', 'Émile')}\n`),
          utf8('{"type":"company","id":"text-x","name":x}\n'),
          utf8(`${company('bad id', 'Fine')}\n`),
          utf8('{"type":"company"\n'),
        ]),
      );
      const error = (await rejection(path, workers)) as ImportRejected;
      expect(error).toBeInstanceOf(ImportRejected);
      // "É" in Latin-1 is the byte 0xC9 (a UTF-8 lead byte), followed by "m".
      const offset =
        Buffer.byteLength(first) + Buffer.byteLength(company('text-latin', 'Émile').slice(0, company('text-latin', 'Émile').indexOf('É')), 'latin1');
      expect(error.problems).toEqual([
        {
          line: 2,
          record: '',
          message: `not valid UTF-8 at byte offset ${offset}: byte 0xC9 starts a 2-byte character but 0x6D follows it (is the file Latin-1 or Windows-1252? it must be UTF-8)`,
        },
        { line: 3, record: '', message: "not valid JSON at column 40: Unexpected token 'x'" },
        { line: 4, record: 'company bad id', message: expect.stringContaining('/id must be 1 to 64 of A-Z a-z 0-9 _ -') },
        { line: 5, record: '', message: "not valid JSON at column 18: Expected ',' or '}' after property value" },
      ]);
      expect(error.total).toBe(4);
      expect(await storedName('text-ok')).toBeUndefined();
    });

    it(`takes exactly 4 MiB a line and refuses a byte more, by the line check (${how})`, async () => {
      const record = company('text-long', 'Long');
      const padded = (bytes: number) => record + ' '.repeat(bytes - record.length);
      const path = write([padded(MAX_LINE_BYTES + 1), company('text-after', 'After'), 'x'.repeat(5_000_088), padded(MAX_LINE_BYTES)].join('\n'));
      // (Pieces of the default size: a line is cut from pieces of 64 bytes by copying what came before.)
      const error = (await rejection(path, workers && { workers: 1 })) as ImportRejected;
      const tooLong = 'longer than 4 MiB (4,194,304 bytes; NDJSON holds one record per line)';
      expect(error.problems).toEqual([
        { line: 1, record: '', message: tooLong },
        { line: 3, record: '', message: tooLong },
      ]);
      // A line of 4 MiB exactly is a record.
      await importFile(database.db, write(padded(MAX_LINE_BYTES)), { defaultPhoneRegion: 'US', workers: workers && { workers: 1 } });
      expect(await storedName('text-long')).toBe('Long');
    });
  }

  it('names another encoding by its byte-order mark or its zero bytes, or a compressed file by its magic bytes, before reading on', async () => {
    const text = `${company('text-16', 'Émile')}\n`;
    const cases: [Buffer, string][] = [
      [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 'line 1: UTF-16 LE byte-order mark: the file must be UTF-8'],
      [Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]), 'line 1: UTF-16 BE byte-order mark: the file must be UTF-8'],
      [Buffer.from([0xff, 0xfe, 0, 0, 0x7b, 0, 0, 0]), 'line 1: UTF-32 LE byte-order mark: the file must be UTF-8'],
      [Buffer.from([0, 0, 0xfe, 0xff, 0, 0, 0, 0x7b]), 'line 1: UTF-32 BE byte-order mark: the file must be UTF-8'],
      [Buffer.from(text, 'utf16le'), 'line 1: zero bytes as in UTF-16 LE text without a byte-order mark: the file must be UTF-8'],
      [gzipSync(text), 'line 1: the file is gzip-compressed (decompress it first: gunzip): the import reads NDJSON or a JSON array as UTF-8 text'],
      [
        Buffer.from('PK\x03\x04data.ndjson', 'latin1'),
        'line 1: the file is a ZIP archive (extract the file first: unzip): the import reads NDJSON or a JSON array as UTF-8 text',
      ],
    ];
    for (const [bytes, message] of cases) {
      const error = await rejection(write(bytes));
      expect(error).toBeInstanceOf(ImportParseError);
      expect(error.message).toBe(message);
    }
  });

  it('stops a JSON array at bytes that are not UTF-8, or where it does not parse, naming the line and column', async () => {
    const good = company('text-array', 'Émile');
    const notUtf8 = await rejection(write(Buffer.concat([utf8(`[\n${good},\n`), latin1(`${company('text-latin', 'Zoë')}\n]`)])));
    expect(notUtf8).toBeInstanceOf(ImportParseError);
    const offset = Buffer.byteLength(`[\n${good},\n`) + company('text-latin', 'Zoë').indexOf('ë');
    expect(notUtf8.message).toBe(
      `line 3: not valid UTF-8 at byte offset ${offset}: byte 0xEB starts a 3-byte character but 0x22 follows it (is the file Latin-1 or Windows-1252? it must be UTF-8)`,
    );
    const missingComma = await rejection(write(`[\n  ${good},\n  ${good} ${good}\n]`));
    expect(missingComma.message).toBe(`line 3, column ${good.length + 4}: not valid JSON: expected ','`);
    const truncated = await rejection(write(`[\n  ${good},\n  ${good}\n`));
    expect(truncated.message).toBe("line 4, column 1 (the end of the file): not valid JSON: expected ','");
  });

  it('accepts a UTF-8 byte-order mark, and stores U+FFFD only where the file holds it', async () => {
    await importFile(database.db, write(`\ufeff${company('text-bom', 'Émile')}\n${company('text-fffd', 'A \ufffd held')}\n`), { defaultPhoneRegion: 'US' });
    await importFile(database.db, write(`\ufeff[${company('text-bom-array', 'Zoë')}]`), { defaultPhoneRegion: 'US' });
    expect(await storedName('text-bom')).toBe('Émile');
    expect(await storedName('text-fffd')).toBe('A \ufffd held');
    expect(await storedName('text-bom-array')).toBe('Zoë');
    const replaced = await database.db.query<{ id: string }>("SELECT id FROM companies WHERE strpos(name, U&'\\FFFD') > 0");
    expect(replaced.map((r) => r.id)).toEqual(['text-fffd']);
  });
});
