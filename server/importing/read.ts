// Where import records come from, one at a time and never all in memory: a file (NDJSON,
// or a JSON array, told apart by its first character), a text, or records in memory
// (tests, the demo). Each comes with its line (NDJSON) or position (JSON array), so every
// rejection can name it. A file's bytes become text only once they are known to be UTF-8
// (utf8.ts): an NDJSON file is cut into pieces of whole lines as bytes, decoded and
// checked a line at a time (check.ts); a JSON array is decoded as it streams, here.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { jsonParser } from 'stream-json/core/parser.js';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import { jsonLineProblem, type SyntaxPlace, stopOf } from './jsonSyntax.js';
import { invalidUtf8, otherEncoding, UTF8_BOM } from './utf8.js';

export type ImportSource = { path: string } | { text: string } | { records: Iterable<unknown> };

export type Sourced = { line: number; value: unknown } | { line: number; unparsable: string };

/** The file cannot be read as records at all (not UTF-8, a JSON array that does not parse): nothing was written. */
export class ImportParseError extends Error {}

/**
 * The longest line an NDJSON file may have, in bytes (its newline not counted). A record
 * is a few hundred bytes; a file that is not NDJSON (one huge line) is not held whole in
 * memory: a longer line is a problem of its own, and the next lines are read on.
 */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

export const TOO_LONG = `longer than 4 MiB (${MAX_LINE_BYTES.toLocaleString('en-US')} bytes; NDJSON holds one record per line)`;

/** What a file is, from its first bytes: NDJSON or a JSON array; refused at once if it is not UTF-8 text. */
export async function fileKind(path: string): Promise<'ndjson' | 'array'> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const start = buffer.subarray(0, bytesRead);
    const other = otherEncoding(start);
    if (other) throw new ImportParseError(`line 1: ${other}`);
    // (A UTF-8 byte-order mark is whitespace to trimStart.)
    return start.toString('utf8').trimStart()[0] === '[' ? 'array' : 'ndjson';
  } finally {
    await handle.close();
  }
}

/** Records in batches of up to about `size`: the checks then run without an await per record. Not for NDJSON files (ndjsonPieces). */
export async function* readBatches(source: ImportSource, size = 2_000): AsyncGenerator<Sourced[]> {
  let batch: Sourced[] = [];
  for await (const sourced of readSource(source)) {
    batch.push(sourced);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

async function* readSource(source: ImportSource): AsyncGenerator<Sourced> {
  if ('records' in source) {
    let line = 0;
    for (const value of source.records) yield { line: ++line, value };
  } else if ('text' in source) {
    if (source.text.trimStart().startsWith('[')) yield* arrayOf(() => JSON.parse(source.text.trimStart()));
    else yield* ndjson(source.text.split('\n'));
  } else if ((await fileKind(source.path)) === 'array') {
    yield* streamedArray(source.path);
  } else {
    throw new Error('an NDJSON file is read in pieces of lines (ndjsonPieces), not record by record');
  }
}

/** One record of an NDJSON line (`line` counts from 1), or why it is unparsable; undefined for a blank line. */
export function parseLine(raw: string, line: number): Sourced | undefined {
  const text = raw.trim();
  if (!text) return undefined;
  try {
    return { line, value: JSON.parse(text) };
  } catch (error) {
    const { column, reason } = jsonLineProblem(text, error);
    // (Leading whitespace is one code point per UTF-16 unit.)
    return { line, unparsable: `not valid JSON at column ${column + raw.length - raw.trimStart().length}: ${reason}` };
  }
}

function* ndjson(lines: Iterable<string>): Generator<Sourced> {
  let line = 0;
  for (const raw of lines) {
    const sourced = parseLine(raw, ++line);
    if (sourced) yield sourced;
  }
}

/**
 * Whole lines of an NDJSON file, about `size` bytes at a time, undecoded (check.ts decodes
 * them); `firstLine` counts from 1, `firstByte` is the piece's offset in the file. A line
 * longer than MAX_LINE_BYTES that a piece cannot hold comes alone, as `tooLong`, without
 * its bytes (which were read past, not kept).
 */
export interface NdjsonPiece {
  bytes: Uint8Array<ArrayBuffer>;
  firstLine: number;
  firstByte: number;
  tooLong?: true;
}

export async function* ndjsonPieces(path: string, size = 1 << 20): AsyncGenerator<NdjsonPiece> {
  let line = 1;
  let offset = 0;
  let rest: Buffer = Buffer.alloc(0);
  // The line being read past, too long to hold: where it started.
  let skipping: number | undefined;
  for await (const read of createReadStream(path, { highWaterMark: size }) as AsyncIterable<Buffer>) {
    let chunk = read;
    if (skipping !== undefined) {
      const end = chunk.indexOf(10);
      offset += end === -1 ? chunk.length : end + 1;
      if (end === -1) continue;
      yield { bytes: new Uint8Array(0), firstLine: line++, firstByte: skipping, tooLong: true };
      skipping = undefined;
      chunk = chunk.subarray(end + 1);
    }
    const data = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    const cut = data.lastIndexOf(10);
    if (cut !== -1) {
      // Each piece has a buffer of its own, to be handed to a worker whole. Its lines may
      // still be too long: check.ts measures each.
      yield { bytes: new Uint8Array(data.subarray(0, cut)), firstLine: line, firstByte: offset };
      line += newlines(data, cut) + 1;
      offset += cut + 1;
    }
    rest = Buffer.from(data.subarray(cut + 1));
    if (rest.length > MAX_LINE_BYTES) {
      skipping = offset;
      offset += rest.length;
      rest = Buffer.alloc(0);
    }
  }
  if (skipping !== undefined) yield { bytes: new Uint8Array(0), firstLine: line, firstByte: skipping, tooLong: true };
  else yield { bytes: new Uint8Array(rest), firstLine: line, firstByte: offset };
}

function newlines(data: Uint8Array, end: number): number {
  let count = 0;
  for (let at = data.indexOf(10); at !== -1 && at < end; at = data.indexOf(10, at + 1)) count++;
  return count;
}

function* arrayOf(parse: () => unknown): Generator<Sourced> {
  let parsed: unknown;
  try {
    parsed = parse();
  } catch (error) {
    throw new ImportParseError(`not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new ImportParseError('a JSON file must be an array of records');
  for (const [index, value] of parsed.entries()) yield { line: index + 1, value };
}

/** A JSON array read element by element (stream-json), so its size does not matter. */
async function* streamedArray(path: string): AsyncGenerator<Sourced> {
  const elements = streamArray.withParserAsStream();
  // (pipeline ends both streams when either fails or the reader stops.)
  const piped = pipeline(Readable.from(decodedText(path)), elements).catch(() => {});
  try {
    for await (const { key, value } of elements as AsyncIterable<{ key: number; value: unknown }>) yield { line: key + 1, value };
  } catch (error) {
    if (error instanceof ImportParseError) throw error;
    throw new ImportParseError(await arraySyntaxError(path, error));
  } finally {
    await piped;
  }
}

/**
 * A file's text, decoded a chunk at a time, each chunk checked to be UTF-8 first (a
 * character cut by a chunk's end waits for the next); a UTF-8 byte-order mark at the start
 * is left out. Anything else stops it, naming the line and the byte offset.
 */
async function* decodedText(path: string): AsyncGenerator<string> {
  let carry: Buffer = Buffer.alloc(0);
  let offset = 0;
  let line = 1;
  for await (const read of createReadStream(path, { highWaterMark: 1 << 16 }) as AsyncIterable<Buffer>) {
    let data = carry.length ? Buffer.concat([carry, read]) : read;
    if (offset === 0 && data.subarray(0, 3).equals(UTF8_BOM)) {
      data = data.subarray(3);
      offset = 3;
    }
    const end = completeCharacters(data);
    const bad = invalidUtf8(data, 0, end);
    if (bad) throw notUtf8(line + newlines(data, bad.at), offset + bad.at, bad.problem);
    const text = data.toString('utf8', 0, end);
    line += newlines(data, end);
    offset += end;
    carry = Buffer.from(data.subarray(end));
    yield text;
  }
  const bad = invalidUtf8(carry);
  if (bad) throw notUtf8(line, offset + bad.at, bad.problem);
}

const notUtf8 = (line: number, offset: number, problem: string) => new ImportParseError(`line ${line}: not valid UTF-8 at byte offset ${offset}: ${problem}`);

/** Where `data` ends but for a multi-byte character its last bytes begin and the next chunk ends. */
function completeCharacters(data: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, data.length); back++) {
    const byte = data[data.length - back]!;
    if (byte < 0x80) return data.length;
    if (byte >= 0xc0) {
      const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return length > back ? data.length - back : data.length;
    }
  }
  return data.length;
}

/**
 * Where a JSON array stopped parsing, for the operator to find: the text is parsed again
 * (the first pass kept no positions), then the chunk where it stopped a character at a
 * time. The reason is stream-json's.
 */
async function arraySyntaxError(path: string, error: unknown): Promise<string> {
  const reason = String((error as Error)?.message ?? error).replace(/^Parser (cannot parse input: |has )/, '');
  let parse = jsonParser();
  let before = 0;
  let failing: number | undefined;
  for await (const text of decodedText(path)) {
    try {
      parse(text);
    } catch {
      failing = before;
      break;
    }
    before += text.length;
  }
  const place: SyntaxPlace = { line: 1, column: 1 };
  if (failing === undefined) {
    // It stopped where the file ends: count to there.
    for await (const text of decodedText(path)) advance(place, text);
    return `line ${place.line}, column ${place.column} (the end of the file): not valid JSON: ${reason}`;
  }
  parse = jsonParser();
  let fed = 0;
  for await (const text of decodedText(path)) {
    // The text before the failing chunk whole, then the rest a character at a time.
    const whole = Math.max(0, Math.min(text.length, failing - fed));
    parse(text.slice(0, whole));
    advance(place, text.slice(0, whole));
    fed += whole;
    if (whole === text.length) continue;
    const rest = text.slice(whole);
    const stop = stopOf(rest, parse);
    advance(place, rest.slice(0, stop));
    if (stop < rest.length) break;
    fed += rest.length;
  }
  return `line ${place.line}, column ${place.column}: not valid JSON: ${reason}`;
}

/** Moves `place` past `text`. */
function advance(place: SyntaxPlace, text: string): void {
  const last = text.lastIndexOf('\n');
  if (last === -1) {
    for (const _ of text) place.column++;
    return;
  }
  place.line += newlinesIn(text);
  place.column = 1;
  for (const _ of text.slice(last + 1)) place.column++;
}

function newlinesIn(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
