// The example app's manifest: every dependency pinned to an exact version, the same the
// repository installs (so in CI its install is served from npm's cache, and the app builds
// with what the suite tested), and the client taken from this repository.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '../..');
const manifest = (path: string) => JSON.parse(readFileSync(resolve(repo, path), 'utf8'));
const root = manifest('package.json');
const example = manifest('examples/react/package.json');

describe('examples/react/package.json', () => {
  const pinned = { ...example.dependencies, ...example.devDependencies };
  delete pinned['@lookup/client'];

  it('takes the client from this repository', () => {
    expect(example.dependencies['@lookup/client']).toBe('file:../../client');
  });

  it.each(Object.entries(pinned))('pins %s to the version the repository installs', (name, version) => {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(version).toBe(root.devDependencies[name]);
  });

  it('has React, TanStack Query and Vite', () => {
    expect(Object.keys(pinned)).toEqual(expect.arrayContaining(['react', 'react-dom', '@tanstack/react-query', 'vite', '@vitejs/plugin-react', 'typescript']));
  });

  it('meets the client’s peer range for TanStack Query', () => {
    expect(manifest('client/package.json').peerDependencies['@tanstack/react-query']).toBe('^5.80.0');
    expect(Number(example.dependencies['@tanstack/react-query'].split('.')[1])).toBeGreaterThanOrEqual(80);
  });
});
