// Where import records come from, one at a time and never all in memory: a file (NDJSON,
// or a JSON array, told apart by its first character), a text, or records in memory
// (tests, the demo). Each comes with its line (NDJSON) or position (JSON array), so every
// rejection can name it.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { streamArray } from 'stream-json/streamers/stream-array.js';

export type ImportSource = { path: string } | { text: string } | { records: Iterable<unknown> };

export type Sourced = { line: number; value: unknown } | { line: number; unparsable: string };

export class ImportParseError extends Error {}

/**
 * The longest line an NDJSON file may have. A record is a few hundred bytes; a file that is
 * not NDJSON (one huge line) stops here instead of being held whole in memory.
 */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

const tooLong = (line: number) => new ImportParseError(`line ${line}: longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB (NDJSON holds one record per line)`);

/** Records in batches of up to about `size`: the checks then run without an await per record. */
export async function* readBatches(source: ImportSource, size = 2_000): AsyncGenerator<Sourced[]> {
  // An NDJSON file is cut into lines a chunk at a time (no await per record).
  if ('path' in source && (await firstCharacter(source.path)) !== '[') {
    yield* ndjsonFile(source.path);
    return;
  }
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

/** Whether the source is a file of NDJSON (not a JSON array). */
export async function isNdjsonFile(source: ImportSource): Promise<boolean> {
  return 'path' in source && (await firstCharacter(source.path)) !== '[';
}

export async function* readSource(source: ImportSource): AsyncGenerator<Sourced> {
  if ('records' in source) {
    let line = 0;
    for (const value of source.records) yield { line: ++line, value };
  } else if ('text' in source) {
    if (source.text.trimStart().startsWith('[')) yield* arrayOf(() => JSON.parse(source.text.trimStart()));
    else yield* ndjson(source.text.split('\n'));
  } else if ((await firstCharacter(source.path)) === '[') {
    yield* streamedArray(source.path);
  } else {
    for await (const batch of ndjsonFile(source.path)) yield* batch;
  }
}

/** One record of an NDJSON line (`line` counts from 1), or why it is unparsable; undefined for a blank line. */
export function parseLine(raw: string, line: number): Sourced | undefined {
  const text = raw.trim();
  if (!text) return undefined;
  try {
    return { line, value: JSON.parse(text) };
  } catch {
    return { line, unparsable: 'not valid JSON' };
  }
}

function* ndjson(lines: Iterable<string>): Generator<Sourced> {
  let line = 0;
  for (const raw of lines) {
    const sourced = parseLine(raw, ++line);
    if (sourced) yield sourced;
  }
}

/** An NDJSON file, a batch of records per chunk read (the last line of a chunk waits for the rest of it). */
async function* ndjsonFile(path: string): AsyncGenerator<Sourced[]> {
  let line = 0;
  let rest = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 }) as AsyncIterable<string>) {
    const text = rest + chunk;
    const batch: Sourced[] = [];
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const sourced = parseLine(text.slice(start, end), ++line);
      if (sourced) batch.push(sourced);
      start = end + 1;
    }
    rest = text.slice(start);
    // (In UTF-16 units, each at least a byte.)
    if (rest.length > MAX_LINE_BYTES) throw tooLong(line + 1);
    if (batch.length) yield batch;
  }
  const last = parseLine(rest, ++line);
  if (last) yield [last];
}

/** Whole lines of an NDJSON file, about `size` bytes at a time, undecoded (for check workers); `firstLine` counts from 1. */
export async function* ndjsonPieces(path: string, size = 1 << 20): AsyncGenerator<{ bytes: Uint8Array<ArrayBuffer>; firstLine: number }> {
  let line = 1;
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: size }) as AsyncIterable<Buffer>) {
    const data = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    const cut = data.lastIndexOf(10);
    if (cut === -1) {
      if (data.length > MAX_LINE_BYTES) throw tooLong(line);
      rest = data;
      continue;
    }
    // Each piece has a buffer of its own, to be handed to a worker whole.
    const piece = new Uint8Array(data.subarray(0, cut));
    rest = Buffer.from(data.subarray(cut + 1));
    yield { bytes: piece, firstLine: line };
    line += newlines(data, cut) + 1;
  }
  yield { bytes: new Uint8Array(rest), firstLine: line };
}

function newlines(data: Buffer, end: number): number {
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
  const elements = createReadStream(path).pipe(streamArray.withParserAsStream());
  try {
    for await (const { key, value } of elements as AsyncIterable<{ key: number; value: unknown }>) yield { line: key + 1, value };
  } catch (error) {
    throw new ImportParseError(`not valid JSON: ${(error as Error).message}`);
  }
}

async function firstCharacter(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8').trimStart()[0];
  } finally {
    await handle.close();
  }
}
