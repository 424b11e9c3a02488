// npm run credentials -- <command>; `usage` below lists them. Tokens are printed once,
// at create and rotate; only their SHA-256 is stored, and `list` never shows either.
import { CredentialChangeRefused, changeExpiry, grantCompanies, MAX_OVERLAP_MS, revokeCompanies, rotate } from '../access/credentialChanges.js';
import { loadConfig } from '../config.js';
import { type CredentialSummary, insertCredential, listCredentials, revokeCredential, unknownCompanies } from '../db/stores/credentials.js';
import { credentialNameProblem } from '../domain/credentials.js';
import { formatDuration, parseDuration, parseInstant } from '../domain/durations.js';
import { canonicalUuid } from '../domain/formats.js';
import { hashToken, newToken } from '../domain/tokens.js';
import { commandOf, fail, failOn, failUsage, parseCommandLine } from './commandLine.js';
import { openCliDatabase } from './database.js';

const usage = `usage: npm run credentials -- <command>
  create <name> <companyId>... [--expires <when>]   new credential; prints its token once
  list                                              every credential: companies, created, last use, expiry, rotation
  grant <credentialId> <companyId>...               add companies
  revoke-company <credentialId> <companyId>...      remove companies
  rotate <credentialId> [--overlap <duration>]      new token, printed once; the old one works until the overlap ends (default: stops now)
  set-expiry <credentialId> <when | never>          the credential stops working at <when>
  revoke <credentialId>                             stops the credential for good
<when>: an RFC 3339 instant with an offset (2027-01-31T00:00:00Z) or a duration from now; <duration>: 30m, 24h, 7d, 1d12h.
Running servers follow every change within CREDENTIAL_CACHE_MS.`;

/** Each command's positional arguments after its name: at least, and at most. */
const arity: Record<string, [number, number]> = {
  create: [2, Infinity],
  list: [0, 0],
  grant: [2, Infinity],
  'revoke-company': [2, Infinity],
  rotate: [1, 1],
  'set-expiry': [2, 2],
  revoke: [1, 1],
};

async function main(argv: string[]): Promise<void> {
  const parsed = parseCommandLine(argv, { expires: { type: 'string' }, overlap: { type: 'string' } }, usage);
  const { values, positionals } = parsed;
  const [command, rest] = commandOf(positionals, arity, usage);
  if (values.expires !== undefined && command !== 'create') failUsage(`--expires belongs to create (use set-expiry to change it)`, usage);
  if (values.overlap !== undefined && command !== 'rotate') failUsage(`--overlap belongs to rotate`, usage);
  // Inputs are checked before the database is opened: a typo costs nothing.
  const nameProblem = command === 'create' ? credentialNameProblem(rest[0]!) : undefined;
  if (nameProblem) fail(nameProblem);
  const expiresAt = values.expires === undefined ? null : instantOrFail('--expires', values.expires);
  const overlapMs = values.overlap === undefined ? 0 : durationOrFail('--overlap', values.overlap);
  if (overlapMs > MAX_OVERLAP_MS) fail(`--overlap may be at most 30d; got "${values.overlap}"`);
  const newExpiry = command === 'set-expiry' ? (rest[1] === 'never' ? null : instantOrFail('<when>', rest[1]!)) : undefined;
  if (command !== 'create' && command !== 'list' && !canonicalUuid(rest[0]!)) {
    fail(`credential id must be a UUID, as npm run credentials -- list shows it; got "${rest[0]}"`);
  }

  const db = await openCliDatabase(loadConfig());
  const say = (line: string) => process.stdout.write(`${line}\n`);
  try {
    switch (command) {
      case 'create': {
        const [name, ...named] = rest as [string, ...string[]];
        const companies = [...new Set(named)];
        if (expiresAt && expiresAt.getTime() <= Date.now()) fail('--expires must be in the future');
        const unknown = await unknownCompanies(db, companies);
        if (unknown.length) fail(`unknown companies: ${unknown.join(', ')} (import them first)`);
        const token = newToken();
        const id = await insertCredential(db, name, hashToken(token), companies, expiresAt);
        say(`created credential ${id} "${name}" for ${companies.join(', ')}${expiresAt ? `, expires ${expiresAt.toISOString()}` : ''}`);
        say(`token (shown once, store it now): ${token}`);
        break;
      }
      case 'list': {
        const credentials = await listCredentials(db);
        if (!credentials.length) say('no credentials yet (npm run credentials -- create <name> <companyId>... makes one)');
        for (const c of credentials) say(describe(c));
        break;
      }
      case 'grant':
      case 'revoke-company': {
        const [id, ...companies] = rest as [string, ...string[]];
        const change = await (command === 'grant' ? grantCompanies : revokeCompanies)(db, id, companies);
        if (change.unchanged.length) say(`${command === 'grant' ? 'already granted' : 'not granted'}, unchanged: ${change.unchanged.join(', ')}`);
        say(
          change.before.join() === change.after.join()
            ? `credential ${id} unchanged: [${change.after.join(', ')}]`
            : `credential ${id} now covers [${change.after.join(', ')}] (was [${change.before.join(', ')}])`,
        );
        break;
      }
      case 'rotate': {
        const [id] = rest as [string];
        const rotation = await rotate(db, id, overlapMs);
        if (rotation.endedOverlap) say(`the token an earlier rotation replaced (overlap until ${rotation.endedOverlap.toISOString()}) stops working now`);
        say(
          rotation.previousValidUntil
            ? `the previous token keeps working until ${rotation.previousValidUntil.toISOString()}`
            : 'the previous token stops working now',
        );
        say(`token (shown once, store it now): ${rotation.token}`);
        break;
      }
      case 'set-expiry': {
        const [id] = rest as [string];
        await changeExpiry(db, id, newExpiry!);
        say(newExpiry ? `credential ${id} expires ${newExpiry.toISOString()}` : `credential ${id} never expires`);
        break;
      }
      case 'revoke': {
        const [id] = rest as [string];
        if (!(await revokeCredential(db, id))) {
          const known = (await listCredentials(db)).some((c) => c.id === id);
          fail(known ? `credential ${id} is already revoked` : `unknown credential ${id} (npm run credentials -- list shows them)`);
        }
        say(`revoked credential ${id}`);
        break;
      }
    }
    if (command !== 'list' && command !== 'create') say('running servers follow within CREDENTIAL_CACHE_MS');
  } catch (error) {
    if (error instanceof CredentialChangeRefused) fail(error.message);
    throw error;
  } finally {
    await db.close();
  }
}

/** Two lines per credential: what it is, then its lifecycle. */
function describe(c: CredentialSummary): string {
  const now = Date.now();
  const at = (d: Date | null) => (d ? d.toISOString() : 'never');
  const state = c.revokedAt
    ? `revoked ${c.revokedAt.toISOString()}`
    : c.expiresAt && c.expiresAt.getTime() <= now
      ? `expired ${c.expiresAt.toISOString()}`
      : 'active';
  const expiry = c.expiresAt ? (c.expiresAt.getTime() <= now ? `expired ${at(c.expiresAt)}` : `expires ${at(c.expiresAt)}`) : 'no expiry';
  // A revoked or expired credential opens nothing: a previous token's overlap is moot.
  let overlap = state === 'active' ? 'no rotation overlap' : '';
  if (c.previousTokenValidUntil && state === 'active') {
    overlap =
      c.previousTokenValidUntil.getTime() > now
        ? `previous token valid until ${at(c.previousTokenValidUntil)} (${formatDuration(c.previousTokenValidUntil.getTime() - now)} left), last used ${at(c.previousTokenLastUsedAt)}`
        : `rotation overlap ended ${at(c.previousTokenValidUntil)}`;
  }
  return `${c.id}  ${state.padEnd(32)}  ${c.name}  [${c.companies.join(', ')}]\n    created ${at(c.createdAt)}, last used ${at(c.lastUsedAt)}, ${[expiry, overlap].filter(Boolean).join(', ')}`;
}

function durationOrFail(flag: string, text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) fail(`${flag}: "${text}" is not a duration (use e.g. 30m, 24h, 7d, 1d12h)`);
  return ms;
}

function instantOrFail(what: string, text: string): Date {
  const at = parseInstant(text);
  if (!at) fail(`${what}: "${text}" is neither an RFC 3339 instant with an offset (2027-01-31T00:00:00Z) nor a duration from now (90d)`);
  return at;
}

main(process.argv.slice(2)).catch(failOn);
