// Where import records come from, one at a time and never all in memory: a file (NDJSON,
// or a JSON array, told apart by its first character), a text, or records in memory
// (tests, the demo). Each comes with its line (NDJSON) or position (JSON array), so every
// rejection can name it.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { streamArray } from 'stream-json/streamers/stream-array.js';

export type ImportSource = { path: string } | { text: string } | { records: Iterable<unknown> };

export type Sourced = { line: number; value: unknown } | { line: number; unparsable: string };

export class ImportParseError extends Error {}

/** Records in batches of up to `size`: the checks then run without an await per record. */
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
    yield* ndjson(createInterface({ input: createReadStream(source.path, { encoding: 'utf8' }), crlfDelay: Infinity }));
  }
}

async function* ndjson(lines: Iterable<string> | AsyncIterable<string>): AsyncGenerator<Sourced> {
  let line = 0;
  for await (const raw of lines) {
    line++;
    const text = raw.trim();
    if (!text) continue;
    try {
      yield { line, value: JSON.parse(text) };
    } catch {
      yield { line, unparsable: 'not valid JSON' };
    }
  }
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
