// An NDJSON file is cut into lines a chunk (1 MB) at a time: a record split across chunks,
// a multi-byte character on a boundary, CRLF endings, blank lines and a last line without
// a newline all come out whole, each with its line number and byte offset.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES, ndjsonPieces, parseLine, type Sourced } from '../../server/importing/read.js';

describe('reading an NDJSON file larger than a chunk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'import-read-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives every record whole, with its line, across chunk boundaries', async () => {
    const lines: string[] = [];
    // About 3 MB of lines of varying length, names in several scripts (2-, 3- and 4-byte UTF-8).
    for (let i = 1; i <= 30_000; i++) {
      if (i % 1000 === 0) lines.push('');
      else if (i === 29_990) lines.push('{"type":"company", not json');
      else lines.push(JSON.stringify({ type: 'company', id: `co-${i}`, name: `Émile Ωμέγα 東京 🎉 ${'x'.repeat(i % 97)}` }));
    }
    const path = join(dir, 'big.ndjson');
    writeFileSync(path, lines.join('\r\n'));

    const read: Sourced[] = [];
    for await (const { bytes, firstLine } of ndjsonPieces(path)) {
      for (const [i, text] of Buffer.from(bytes).toString('utf8').split('\n').entries()) {
        const sourced = parseLine(text, firstLine + i);
        if (sourced) read.push(sourced);
      }
    }

    expect(read).toHaveLength(30_000 - 30);
    const byLine = new Map(read.map((s) => [s.line, s]));
    expect(byLine.get(29_990)).toEqual({ line: 29_990, unparsable: 'not valid JSON at column 20: Expected double-quoted property name' });
    expect(byLine.has(1000)).toBe(false);
    for (const i of [1, 999, 1001, 12_345, 29_999]) {
      expect(byLine.get(i)).toEqual({ line: i, value: { type: 'company', id: `co-${i}`, name: `Émile Ωμέγα 東京 🎉 ${'x'.repeat(i % 97)}` } });
    }
    expect(read.every((s) => 'unparsable' in s || (s.value as { id: string }).id === `co-${s.line}`)).toBe(true);
  });

  it('cuts it into pieces of whole lines for the check workers, each knowing its first line', async () => {
    const lines: string[] = [];
    for (let i = 1; i <= 5_000; i++) lines.push(i % 500 === 0 ? '' : `{"n":${i},"name":"Émile 東京 🎉 ${'x'.repeat(i % 301)}"}`);
    const path = join(dir, 'pieces.ndjson');
    writeFileSync(path, `${lines.join('\r\n')}\n`);

    const read = new Map<number, string>();
    let pieces = 0;
    let offset = 0;
    for await (const { bytes, firstLine, firstByte } of ndjsonPieces(path, 4096)) {
      pieces++;
      // Pieces follow each other in the file, their newline between them.
      expect(firstByte).toBe(offset);
      offset += bytes.byteLength + 1;
      // Each piece is its own buffer (a worker takes it whole), and ends on a line's end.
      expect(bytes.byteOffset).toBe(0);
      expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
      const texts = Buffer.from(bytes).toString('utf8').split('\n');
      for (const [i, text] of texts.entries()) read.set(firstLine + i, text);
    }
    expect(pieces).toBeGreaterThan(100);
    // (CRLF endings: every line but the last, which ends with LF alone, keeps its CR.)
    for (let i = 1; i <= 5_000; i++) expect(read.get(i)).toBe(i < 5_000 ? `${lines[i - 1]}\r` : lines[i - 1]);
    // The file ends with a newline: its last line is empty.
    expect(read.get(5_001)).toBe('');
  });

  it('reads past a line longer than the limit, naming it, rather than holding it whole', async () => {
    // A file that is not NDJSON: its third line runs on far past the limit, then two more lines.
    const path = join(dir, 'one-line.ndjson');
    // (Longer than the limit and a chunk together: a line up to that long is held, and check.ts measures it.)
    const long = `[${'1,'.repeat(MAX_LINE_BYTES)}1]`;
    writeFileSync(path, `{"n":1}\n{"n":2}\n${long}\n{"n":4}\n{"n":5}`);
    const pieces = [];
    for await (const piece of ndjsonPieces(path)) pieces.push({ ...piece, bytes: Buffer.from(piece.bytes).toString('utf8').slice(0, 100) });
    expect(pieces).toEqual([
      { bytes: '{"n":1}\n{"n":2}', firstLine: 1, firstByte: 0 },
      { bytes: '', firstLine: 3, firstByte: 16, tooLong: true },
      { bytes: '{"n":4}', firstLine: 4, firstByte: 16 + long.length + 1 },
      { bytes: '{"n":5}', firstLine: 5, firstByte: 16 + long.length + 9 },
    ]);
  });
});
