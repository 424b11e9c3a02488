// The client's version, as each place that states it states it. One release names one
// version everywhere: the contract's info.version (the client is built from it, so it is
// the contract's release), client/package.json, the version the client sends in its
// User-Agent, and the newest heading of client/CHANGELOG.md. docs/decisions/0024-consumer-sdk.md
// says why the client follows the contract.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

const root = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

export interface StatedVersions {
  /** openapi.yaml `info.version`. */
  contract: string;
  /** client/package.json `version`. */
  package: string;
  /** client/src/version.ts `clientVersion` (the User-Agent's). */
  userAgent: string | undefined;
  /** The newest `## <version>` heading of client/CHANGELOG.md. */
  changelog: string | undefined;
}

export function statedVersions(): StatedVersions {
  return {
    contract: String(parse(read('openapi.yaml')).info.version),
    package: JSON.parse(read('client/package.json')).version,
    userAgent: /clientVersion = '([^']+)'/.exec(read('client/src/version.ts'))?.[1],
    changelog: /^## (\S+)/m.exec(read('client/CHANGELOG.md'))?.[1],
  };
}

/** What disagrees with the contract's version, one line each; none when all agree. */
export function disagreements(stated: StatedVersions): string[] {
  const { contract, ...others } = stated;
  return Object.entries(others)
    .filter(([, version]) => version !== contract)
    .map(([where, version]) => `${where} says ${version ?? 'nothing'}, the contract's info.version ${contract}`);
}
