// npm run credentials -- <command>; `usage` below lists them. Tokens are printed once,
// at create and rotate; only their SHA-256 is stored, and `list` never shows either.
// Every argument is checked before the database is opened: a typo costs nothing.
import {
  CredentialChangeRefused,
  changeExpiry,
  changeFields,
  changePurpose,
  grantCompanies,
  MAX_OVERLAP_MS,
  revokeCompanies,
  rotate,
} from '../access/credentialChanges.js';
import { loadConfig } from '../config.js';
import type { Database } from '../db/engines/database.js';
import { insertCredential, listCredentials, revokeCredential, unknownCompanies } from '../db/stores/credentials.js';
import { credentialNameProblem, credentialPurposeProblem, credentialPurposeSchema } from '../domain/credentials.js';
import { parseDuration, parseInstant } from '../domain/durations.js';
import { ALL_FIELDS, type FieldSet, fieldGroupNames, fieldGroups, formatFieldSet, parseFieldSet } from '../domain/fieldGroups.js';
import { canonicalUuid } from '../domain/formats.js';
import { hashToken, newToken } from '../domain/tokens.js';
import { commandOf, fail, failOn, failUsage, parseCommandLine } from './commandLine.js';
import { describeCredential, reviewReminder } from './credentialListing.js';
import { openCliDatabase } from './database.js';

const groupWidth = Math.max(...fieldGroupNames.map((g) => g.length)) + 2;
const usage = `usage: npm run credentials -- <command>
  create <name> <companyId>... --fields <groups> --purpose "<why>" [--expires <when>]
                                                    new credential; prints its token once
  list                                              every credential: companies, fields, purpose, created, last use, expiry, rotation
  grant <credentialId> <companyId>...               add companies
  revoke-company <credentialId> <companyId>...      remove companies (not the last one: revoke the credential instead)
  set-fields <credentialId> <groups>                the field groups it reads from now on
  set-purpose <credentialId> "<why>"                why it reads personal data, from now on
  rotate <credentialId> [--overlap <duration>]      new token, printed once; the old one works until the overlap ends (default: stops now)
  set-expiry <credentialId> <when | never>          the credential stops working at <when>
  revoke <credentialId>                             stops the credential for good
<groups>: ${ALL_FIELDS}, or some of these field groups separated by commas (name,email); what a credential lacks is never sent:
${fieldGroupNames.map((g) => `  ${g.padEnd(groupWidth)}${fieldGroups[g].description}`).join('\n')}
<why>: one line of at most ${credentialPurposeSchema.maxLength} characters saying why the credential reads personal data; every access-audit entry records it.
<when>: an RFC 3339 instant with an offset (2027-01-31T00:00:00Z) or a duration from now; <duration>: 30m, 24h, 7d, 1d12h.
Running servers follow every change within CREDENTIAL_CACHE_MS.`;

/** Each command's positional arguments after its name: at least, and at most. */
const arity = {
  create: [2, Infinity],
  list: [0, 0],
  grant: [2, Infinity],
  'revoke-company': [2, Infinity],
  'set-fields': [2, 2],
  'set-purpose': [2, 2],
  rotate: [1, 1],
  'set-expiry': [2, 2],
  revoke: [1, 1],
} as const;
type Command = keyof typeof arity;

/** The options, each the command's it belongs to, and what to use instead elsewhere. */
const options = {
  fields: ['create', ' (use set-fields to change it)'],
  purpose: ['create', ' (use set-purpose to change it)'],
  expires: ['create', ' (use set-expiry to change it)'],
  overlap: ['rotate', ''],
} as const;

/** A command line, checked: what the command works on, in the domain's terms. */
interface Given {
  /** The positional arguments after the command's name: the credential's id first, but for create and list. */
  rest: string[];
  /** create: the new credential's groups and purpose; set-fields and set-purpose: the new one. */
  fields?: FieldSet;
  purpose?: string;
  /** create: its expiry (null: none); set-expiry: the new one (null: never). */
  expiresAt?: Date | null;
  overlapMs: number;
}

const say = (line: string) => process.stdout.write(`${line}\n`);

async function main(argv: string[]): Promise<void> {
  const [command, given] = readCommandLine(argv);
  const db = await openCliDatabase(loadConfig(), 'credentials');
  try {
    await commands[command](db, given);
    if (command !== 'list' && command !== 'create') say('running servers follow within CREDENTIAL_CACHE_MS');
  } catch (error) {
    if (error instanceof CredentialChangeRefused) fail(error.message);
    throw error;
  } finally {
    await db.close();
  }
}

/** The command and its arguments, or a failure naming the first thing wrong with them. */
function readCommandLine(argv: string[]): [Command, Given] {
  const optionTypes = { fields: { type: 'string' }, purpose: { type: 'string' }, expires: { type: 'string' }, overlap: { type: 'string' } } as const;
  const { values, positionals } = parseCommandLine(argv, optionTypes, usage);
  const [command, rest] = commandOf(positionals, arity, usage) as [Command, string[]];
  for (const [option, [owner, instead]] of Object.entries(options))
    if (values[option as keyof typeof options] !== undefined && command !== owner) failUsage(`--${option} belongs to ${owner}${instead}`, usage);
  const given: Given = { rest, overlapMs: values.overlap === undefined ? 0 : durationOrFail('--overlap', values.overlap) };
  if (given.overlapMs > MAX_OVERLAP_MS) fail(`--overlap may be at most 30d; got "${values.overlap}"`);
  if (command === 'create') {
    const nameProblem = credentialNameProblem(rest[0]!);
    if (nameProblem) fail(nameProblem);
    // No default for either (decision 0019): a credential reads what it was given, for a reason it was given.
    if (values.fields === undefined) failUsage(`create needs --fields <groups>: the field groups the credential reads (${ALL_FIELDS} for every one)`, usage);
    if (values.purpose === undefined) failUsage('create needs --purpose "<why>": one line saying why the credential reads personal data', usage);
    given.fields = fieldsOrFail(values.fields, '--fields: ');
    given.purpose = purposeOrFail(values.purpose);
    given.expiresAt = values.expires === undefined ? null : instantOrFail('--expires', values.expires);
  }
  if (command === 'set-expiry') given.expiresAt = rest[1] === 'never' ? null : instantOrFail('<when>', rest[1]!);
  if (command === 'set-fields') given.fields = fieldsOrFail(rest[1]!);
  if (command === 'set-purpose') given.purpose = purposeOrFail(rest[1]!);
  if (command !== 'create' && command !== 'list' && !canonicalUuid(rest[0]!)) {
    fail(`credential id must be a UUID, as npm run credentials -- list shows it; got "${rest[0]}"`);
  }
  return [command, given];
}

const commands: Record<Command, (db: Database, given: Given) => Promise<void>> = {
  async create(db, { rest: [name, ...named], fields, purpose, expiresAt }) {
    const companies = [...new Set(named)];
    if (expiresAt && expiresAt.getTime() <= Date.now()) fail('--expires must be in the future');
    const unknown = await unknownCompanies(db, companies);
    if (unknown.length) fail(`unknown companies: ${unknown.join(', ')} (import them first)`);
    const token = newToken();
    const id = await insertCredential(db, { name: name!, tokenHash: hashToken(token), companies, fields: fields!, purpose: purpose!, expiresAt });
    say(`created credential ${id} "${name}" for ${companies.join(', ')}${expiresAt ? `, expires ${expiresAt.toISOString()}` : ''}`);
    say(`reads ${formatFieldSet(fields!)}; purpose: ${purpose}`);
    say(`token (shown once, store it now): ${token}`);
  },

  async list(db) {
    const credentials = await listCredentials(db);
    if (!credentials.length) say('no credentials yet (npm run credentials -- create <name> <companyId>... --fields <groups> --purpose "<why>" makes one)');
    for (const c of credentials) say(describeCredential(c));
    const reminder = reviewReminder(credentials);
    if (reminder) say(reminder);
  },

  grant: (db, { rest: [id, ...companies] }) => changeCompanies('grant', db, id!, companies),
  'revoke-company': (db, { rest: [id, ...companies] }) => changeCompanies('revoke-company', db, id!, companies),

  async 'set-fields'(db, { rest: [id], fields }) {
    const { before, after } = await changeFields(db, id!, fields!);
    say(
      before.join() === after.join()
        ? `credential ${id} unchanged: reads ${formatFieldSet(after)}`
        : `credential ${id} now reads ${formatFieldSet(after)} (was ${formatFieldSet(before)})`,
    );
  },

  async 'set-purpose'(db, { rest: [id], purpose }) {
    const { before, after } = await changePurpose(db, id!, purpose!);
    say(before === after ? `credential ${id} unchanged: purpose: ${after}` : `credential ${id} purpose: ${after} (was: ${before})`);
  },

  async rotate(db, { rest: [id], overlapMs }) {
    const rotation = await rotate(db, id!, overlapMs);
    if (rotation.endedOverlap) say(`the token an earlier rotation replaced (overlap until ${rotation.endedOverlap.toISOString()}) stops working now`);
    say(
      rotation.previousValidUntil
        ? `the previous token keeps working until ${rotation.previousValidUntil.toISOString()}`
        : 'the previous token stops working now',
    );
    say(`token (shown once, store it now): ${rotation.token}`);
  },

  async 'set-expiry'(db, { rest: [id], expiresAt }) {
    await changeExpiry(db, id!, expiresAt!);
    say(expiresAt ? `credential ${id} expires ${expiresAt.toISOString()}` : `credential ${id} never expires`);
  },

  async revoke(db, { rest: [id] }) {
    if (!(await revokeCredential(db, id!))) {
      const known = (await listCredentials(db)).some((c) => c.id === id);
      fail(known ? `credential ${id} is already revoked` : `unknown credential ${id} (npm run credentials -- list shows them)`);
    }
    say(`revoked credential ${id}`);
  },
};

async function changeCompanies(command: 'grant' | 'revoke-company', db: Database, id: string, companies: string[]): Promise<void> {
  const change = await (command === 'grant' ? grantCompanies : revokeCompanies)(db, id, companies);
  if (change.unchanged.length) say(`${command === 'grant' ? 'already granted' : 'not granted'}, unchanged: ${change.unchanged.join(', ')}`);
  say(
    change.before.join() === change.after.join()
      ? `credential ${id} unchanged: [${change.after.join(', ')}]`
      : `credential ${id} now covers [${change.after.join(', ')}] (was [${change.before.join(', ')}])`,
  );
}

function fieldsOrFail(text: string, prefix = ''): FieldSet {
  const read = parseFieldSet(text);
  if ('problem' in read) fail(`${prefix}${read.problem}`);
  return read.fields;
}

function purposeOrFail(purpose: string): string {
  const problem = credentialPurposeProblem(purpose);
  if (problem) fail(problem);
  return purpose;
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
