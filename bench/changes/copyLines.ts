// COPY text lines (server/db/engines/copyText.ts copyLine) streamed into a table, a few thousand at a time.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';

/** Copies `lines` into `target` ("table (columns)"). */
export async function copyLines(client: pg.Client, target: string, lines: readonly string[]): Promise<void> {
  await pipeline(Readable.from(chunks(lines)), client.query(copyStreams.from(`COPY ${target} FROM STDIN`)));
}

function* chunks(lines: readonly string[]): Generator<string> {
  for (let i = 0; i < lines.length; i += 5_000) yield lines.slice(i, i + 5_000).join('');
}
