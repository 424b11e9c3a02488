// What the client adds to a browser app, held to its budget: each entry bundled as an app's
// bundler would (esbuild, minified, for the browser, only what the app imports), gzipped.
//   core: createLookupClient, unwrap and LookupApiError, openapi-fetch included   <= 6 kB
//   the drafts client, paginate and the query layer together, TanStack excluded   <= 9 kB
// Measured from client/src: the packed build is the same code compiled by tsc.

import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { createLookupDraftsClient, paginate } from '../../client/src/drafts.js';
import { createLookupClient, LookupApiError, unwrap } from '../../client/src/index.js';
import { createLookupQueries } from '../../client/src/react-query.js';

const src = resolve(import.meta.dirname, '../../client/src');
// esbuild drops a re-exported name it cannot find (in TypeScript it might be a type), so the
// names bundled below are imported here too, where tsc holds that they exist.
void [createLookupClient, unwrap, LookupApiError, createLookupDraftsClient, paginate, createLookupQueries];

/** Bytes, gzipped, of a browser bundle of `code` (an app's imports), with `external` left out. */
async function gzipped(code: string, external: string[] = []): Promise<{ bytes: number; text: string }> {
  const out = await build({
    stdin: { contents: code, resolveDir: src, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    external,
    write: false,
    logLevel: 'silent',
  });
  const text = out.outputFiles[0]!.text;
  return { bytes: gzipSync(text).length, text };
}

describe('the client’s size in an app', () => {
  it('core (createLookupClient, unwrap, LookupApiError): at most 6 kB gzip', async () => {
    const { bytes, text } = await gzipped(`export { createLookupClient, unwrap, LookupApiError } from './index.ts';`);
    console.log(`core: ${bytes} bytes gzip`);
    expect(bytes).toBeLessThanOrEqual(6 * 1024);
    expect(text).toContain('lookup-client/'); // the bundle holds the client...
    expect(text).not.toContain('/v1/persons'); // ...and nothing of the drafts
  });

  it('drafts client, paginate and the query layer together: at most 9 kB gzip, TanStack excluded', async () => {
    const { bytes, text } = await gzipped(
      `export { createLookupDraftsClient, paginate, unwrap, LookupApiError } from './drafts.ts';
       export { createLookupQueries } from './react-query.ts';`,
      ['@tanstack/react-query'],
    );
    console.log(`drafts + paginate + query layer: ${bytes} bytes gzip`);
    expect(bytes).toBeLessThanOrEqual(9 * 1024);
    expect(text).toMatch(/from\s*"@tanstack\/react-query"/);
  });
});
