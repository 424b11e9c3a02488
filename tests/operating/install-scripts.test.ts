// A newcomer's first `npm install` is quiet: npm 11 names every dependency whose install
// script package.json's `allowScripts` does not cover. Every package the lock says has an
// install script is declared: allowed (esbuild fetches its binary) or denied (a telemetry
// package), and Scarf's telemetry is switched off where npm still runs its script.
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));

/** The names of the packages the lock marks as having an install script. */
function withInstallScripts(): string[] {
  const names = new Set<string>();
  for (const [path, entry] of Object.entries<any>(lock.packages)) {
    if (entry.hasInstallScript) names.add(entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  }
  return [...names].sort();
}

describe('install scripts', () => {
  it('every package with an install script is allowed or denied in package.json', () => {
    const scripted = withInstallScripts();
    expect(scripted).toContain('esbuild');
    const undeclared = scripted.filter((name) => typeof pkg.allowScripts?.[name] !== 'boolean');
    expect(undeclared, 'add each to "allowScripts" (npm approve-scripts / npm deny-scripts)').toEqual([]);
  });

  it('allows the build tool and denies the telemetry', () => {
    expect(pkg.allowScripts.esbuild).toBe(true);
    expect(pkg.allowScripts['@scarf/scarf']).toBe(false);
  });

  // npm 11.19 still runs a denied script (the denial only stops the warning); Scarf's own
  // switch in the root package.json keeps it from reporting.
  it('switches Scarf off where it is installed', () => {
    if (withInstallScripts().includes('@scarf/scarf')) expect(pkg.scarfSettings).toEqual({ enabled: false });
  });

  // npm warns (EBADENGINE) for every locked package whose engines exclude the Node running it:
  // each must accept the oldest Node of each line package.json supports.
  it('locks no package that needs a newer Node than package.json supports', () => {
    const oldest = ['20.19.0', '22.13.0', '24.0.0'];
    const tooNew = Object.entries<any>(lock.packages)
      .filter(([path, entry]) => path && typeof entry.engines?.node === 'string')
      .filter(([, entry]) => oldest.some((version) => !semver.satisfies(version, entry.engines.node)))
      .map(([path, entry]) => `${path} (${entry.engines.node})`);
    expect(tooNew).toEqual([]);
  });
});
