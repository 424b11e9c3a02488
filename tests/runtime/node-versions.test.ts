// The Node.js lines the project supports (20.19+, 22.13+, 24) are declared once per package,
// agree, include the one this suite runs on, and are what every package the service installs
// for production declares it runs on: CI runs it on the machine's Node 20 and again on Node 24
// (.ci/run), so a line that stops being declared, a runtime outside the declaration, or a
// dependency update that drops a supported line (npm then only warns, on install) fails here.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '../..');
const manifest = (path: string) => JSON.parse(readFileSync(join(repo, path), 'utf8'));
const service = manifest('package.json');
const client = manifest('client/package.json');
const supported = service.engines.node as string;
/** The first release of each supported line. */
const firsts = ['20.19.0', '22.13.0', '24.0.0'];

describe('supported Node.js lines', () => {
  it('are 20.19+, 22.13+ and 24, the same for the service and the client', () => {
    expect(client.engines.node).toBe(supported);
    for (const version of firsts) expect(semver.satisfies(version, supported), version).toBe(true);
    for (const version of ['18.20.0', '20.18.0', '21.7.0', '22.12.0', '23.11.0']) expect(semver.satisfies(version, supported), version).toBe(false);
  });

  it('are declared by every package installed for production (package-lock.json)', () => {
    const lock = manifest('package-lock.json') as { packages: Record<string, { dev?: boolean; engines?: { node?: string } }> };
    const refusing = Object.entries(lock.packages).flatMap(([path, p]) =>
      !p.dev && p.engines?.node
        ? firsts.filter((version) => !semver.satisfies(version, p.engines!.node!)).map((version) => `${path} (${p.engines!.node}): ${version}`)
        : [],
    );
    expect(refusing).toEqual([]);
  });

  it(`include the one running this suite (${process.version})`, () => {
    expect(semver.satisfies(process.version, supported)).toBe(true);
  });

  it("type against the oldest line's API (@types/node 20), so nothing newer slips in", () => {
    const oldest = semver.minVersion(supported)!;
    expect(semver.major(service.devDependencies['@types/node'])).toBe(oldest.major);
    for (const kind of ['esm', 'cjs-nodenext', 'cjs-node10']) {
      expect(manifest(`tests/client/fixtures/consumers/${kind}/package.json`).devDependencies['@types/node']).toBe(service.devDependencies['@types/node']);
    }
  });
});
