// The operators' configuration page keeps up with the code: every environment variable
// server/config.ts reads is in it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('docs/operating/configuration.md', () => {
  const page = read('docs/operating/configuration.md');

  it('documents every environment variable the service reads', () => {
    const source = read('server/config.ts');
    const names = new Set([...source.matchAll(/\(env, '([A-Z][A-Z0-9_]+)'/g), ...source.matchAll(/env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
    expect(names.size).toBeGreaterThan(15);
    const undocumented = [...names].filter((name) => !page.includes(`\`${name}\``));
    expect(undocumented).toEqual([]);
  });
});
