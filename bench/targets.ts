// The processes the bench starts: the service (as production runs it, `npm run build` then
// `npm run start:prod`'s node with its flags, on PostgreSQL or PGlite), the import (built
// likewise, with `npm run import`'s flags) and the references on bare node:http. Each
// service answers an authenticated hello when ready.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from '../scripts/build.js';
import { nodeFlagsOf } from './nodeFlags.js';
import type { TargetSpec } from './processes.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const tsx = (file: string) => [process.execPath, '--import', 'tsx', root + file];

// A build of this run's own, from the working copy as it is now: a dist/ in use, and another
// bench run's build (the slow tests run two at once), are left alone.
const benchBuild = join(root, `.build-bench-${process.pid}`);
let built = false;
/** `script`'s node with its flags on `entry` of the bench's build (made on first use). */
function builtCommand(script: string, entry: string): string[] {
  if (!built) {
    build(benchBuild);
    process.once('exit', () => rmSync(benchBuild, { recursive: true, force: true }));
  }
  built = true;
  return [process.execPath, ...nodeFlagsOf(script), join(benchBuild, entry)];
}
const builtServer = () => builtCommand('start:prod', 'server/main.js');

/** The import as production runs it: built, with `npm run import`'s node flags. */
export const builtImport = () => builtCommand('import', 'server/cli/import.js');

/**
 * Hello's reference: a bare node:http handler. (fastify, stock openapi-backend and the Prism
 * mock were measured beside it once; docs/performance.md keeps what they showed.)
 */
export const BARE_HELLO = 'bare node:http handler';

export interface ReadyCheck {
  companyId: string;
  token: string;
}

/**
 * The service, built: development (drafts on), no demo data, the access audit as shipped unless
 * `extraEnv` says otherwise; logging at warn and the rate limit out of reach: the bench measures neither.
 */
export function serviceTarget(
  name: string,
  database: { databaseUrl: string } | { pgliteDataDir: string },
  ready: ReadyCheck,
  extraEnv: Record<string, string> = {},
): TargetSpec {
  return {
    name,
    argv: builtServer(),
    env: {
      APP_ENV: 'development',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      ...('databaseUrl' in database ? { DATABASE_URL: database.databaseUrl } : { PGLITE_DATA_DIR: database.pgliteDataDir }),
      // The access audit's spool (PostgreSQL's default), next to the bench's build.
      AUDIT_SPOOL_DIR: join(benchBuild, 'audit-spool'),
      ...extraEnv,
    },
    ready: { path: `/v1/companies/${ready.companyId}/hello`, token: ready.token },
  };
}

/** The floor and direct SQL (references/bareSearch.ts), on the database the service opens with `serviceEnv`. */
export const BARE_SEARCH = 'node:http + findPersons';
export function bareSearchTarget(serviceEnv: Record<string, string>, credentials: { token: string }[], ready: ReadyCheck): TargetSpec {
  return {
    name: BARE_SEARCH,
    argv: tsx('bench/references/bareSearch.ts'),
    env: { ...serviceEnv, BENCH_CREDENTIALS: JSON.stringify(credentials.map(({ token }) => ({ token }))) },
    ready: { path: `/v1/companies/${ready.companyId}/hello`, token: ready.token },
  };
}

/** The same service with its access audit off. */
export const auditOffName = (service: string) => service.replace(/\)$/, ', audit off)');

export function helloReferenceTarget(credentials: { token: string; companies: string[] }[], ready: ReadyCheck): TargetSpec {
  return {
    name: BARE_HELLO,
    argv: tsx('bench/references/bareHello.ts'),
    env: { BENCH_CREDENTIALS: JSON.stringify(credentials.map(({ token, companies }) => ({ token, companies }))) },
    ready: { path: `/v1/companies/${ready.companyId}/hello`, token: ready.token },
  };
}
