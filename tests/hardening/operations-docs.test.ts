// The operators' section of the README keeps up with the code: every environment
// variable server/config.ts reads is in its table.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('README: Operating the service', () => {
  const readme = read('README.md');
  const start = readme.indexOf('\n## Operating the service');
  const next = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, next === -1 ? undefined : next);

  it('exists', () => {
    expect(start).toBeGreaterThan(-1);
  });

  it('documents every environment variable the service reads', () => {
    const source = read('server/config.ts');
    const names = new Set([...source.matchAll(/\(env, '([A-Z][A-Z0-9_]+)'/g), ...source.matchAll(/env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
    expect(names.size).toBeGreaterThan(15);
    const undocumented = [...names].filter((name) => !section.includes(`\`${name}\``));
    expect(undocumented).toEqual([]);
  });
});
