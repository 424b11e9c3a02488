// generated/ must be exactly what `npm run generate` writes from openapi.yaml today.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const fresh = mkdtempSync(join(tmpdir(), 'generated-'));
afterAll(() => rmSync(fresh, { recursive: true, force: true }));

describe('generated/', () => {
  it('is current: regenerating from openapi.yaml changes nothing (run `npm run generate`)', () => {
    execFileSync(join('node_modules', '.bin', 'tsx'), ['scripts/generate.ts', fresh], { stdio: 'pipe' });
    const committed = readdirSync('generated').sort();
    expect(readdirSync(fresh).sort()).toEqual(committed);
    for (const file of committed) {
      expect(readFileSync(join(fresh, file), 'utf8'), `generated/${file} is stale`).toBe(readFileSync(join('generated', file), 'utf8'));
    }
  }, 60_000);
});
