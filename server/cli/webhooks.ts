// npm run webhooks -- <command>; `usage` below lists them. A secret is printed once, at add
// and rotate-secret; list never shows one. The command line is checked before the
// database is opened (exit 1); what the data refuses (a target that is not a public https
// address, an unknown company or endpoint, a position the feed does not hold) exits 2.
// docs/operating/webhooks.md.
import { loadConfig } from '../config.js';
import type { Database } from '../db/engines/database.js';
import { findEndpoint, listDeliveries, listEndpoints, removeEndpoint, type WebhookEndpoint } from '../db/stores/webhooks.js';
import { decodeChangeCursor, encodeChangeCursor } from '../domain/changeCursor.js';
import { changeKinds } from '../domain/changes.js';
import { parseDuration } from '../domain/durations.js';
import { companyIdPattern } from '../domain/fields.js';
import { canonicalUuid } from '../domain/formats.js';
import {
  addEndpoint,
  DEFAULT_SECRET_OVERLAP_MS,
  enableEndpoint,
  MAX_SECRET_OVERLAP_MS,
  replayEndpoint,
  rotateSecret,
  unknownEndpoint,
  WebhookChangeRefused,
} from '../webhooks/endpoints.js';
import { commandOf, fail, failOn, failUsage, parseCommandLine, reject } from './commandLine.js';
import { openCliDatabase } from './database.js';

const usage = `usage: npm run webhooks -- <command>
  add <url> --companies <id,...> [--events <kinds>]  new endpoint for the changes committed from now on; prints its id and signing secret once
  list                                               every endpoint: target, companies, kinds, state, how far it is delivered
  remove <endpointId>                                stops its deliveries for good
  rotate-secret <endpointId> [--overlap <duration>]  new signing secret, printed once; the old one also signs for the overlap (default 24h, at most 7d)
  deliveries <endpointId> [--limit <n>]              its latest attempts (default 20), newest first
  replay <endpointId> --from <position>              delivers again the changes after <position>, in order (enables it if disabled)
  enable <endpointId>                                a disabled endpoint delivers again, from the batch it stopped at
<url>: https:// and a name resolving to public addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS=true allows http and private ones; never in production).
<kinds>: some of ${changeKinds.join(', ')}, separated by commas; every kind when left out.
<position>: a change's position or a feed page's next, as the feed gives it. <duration>: 30m, 24h, 7d, 0.
Running servers follow every change within WEBHOOKS_POLL_INTERVAL_MS.`;

const arity = {
  add: [1, 1],
  list: [0, 0],
  remove: [1, 1],
  'rotate-secret': [1, 1],
  deliveries: [1, 1],
  replay: [1, 1],
  enable: [1, 1],
} as const;
type Command = keyof typeof arity;

/** Each option and the command it belongs to. */
const owners = { companies: 'add', events: 'add', overlap: 'rotate-secret', limit: 'deliveries', from: 'replay' } as const;

interface Given {
  arg: string;
  companies: string[];
  events: string[] | null;
  overlapMs: number;
  limit: number;
  from: bigint;
  allowPrivateTargets: boolean;
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const COMPANY_ID = new RegExp(companyIdPattern);

async function main(argv: string[]): Promise<void> {
  const [command, given] = readCommandLine(argv);
  const config = loadConfig();
  given.allowPrivateTargets = config.webhooks.allowPrivateTargets;
  const db = await openCliDatabase(config, 'webhooks');
  try {
    await commands[command](db, given);
  } catch (error) {
    if (error instanceof WebhookChangeRefused) reject(`${error.message}; nothing was changed`);
    throw error;
  } finally {
    await db.close();
  }
}

/** The command and its arguments, checked without a database: a typo costs nothing. */
function readCommandLine(argv: string[]): [Command, Given] {
  const optionTypes = {
    companies: { type: 'string' },
    events: { type: 'string' },
    overlap: { type: 'string' },
    limit: { type: 'string' },
    from: { type: 'string' },
  } as const;
  const { values, positionals } = parseCommandLine(argv, optionTypes, usage);
  const [command, [arg]] = commandOf(positionals, arity, usage) as [Command, string[]];
  for (const [option, owner] of Object.entries(owners))
    if (values[option as keyof typeof owners] !== undefined && command !== owner) failUsage(`--${option} belongs to ${owner}`, usage);
  const given: Given = { arg: arg ?? '', companies: [], events: null, overlapMs: DEFAULT_SECRET_OVERLAP_MS, limit: 20, from: 0n, allowPrivateTargets: false };
  if (command === 'add') {
    if (values.companies === undefined) failUsage('add needs --companies <id,...>: the companies whose changes the endpoint receives', usage);
    given.companies = [...new Set(listOf(values.companies))];
    const bad = given.companies.find((c) => !COMPANY_ID.test(c));
    if (!given.companies.length || bad !== undefined) fail(`--companies: not a company id: "${bad ?? ''}" (${companyIdPattern})`);
    if (values.events !== undefined) given.events = kindsOrFail(values.events);
  }
  if (values.overlap !== undefined) given.overlapMs = overlapOrFail(values.overlap);
  if (values.limit !== undefined) {
    given.limit = Number(values.limit);
    if (!/^\d+$/.test(values.limit) || given.limit < 1 || given.limit > 1000) fail(`--limit must be a whole number from 1 to 1000; got "${values.limit}"`);
  }
  if (command === 'replay') {
    if (values.from === undefined) failUsage('replay needs --from <position>: a change position or a feed page next, as the feed gives it', usage);
    const position = decodeChangeCursor(values.from);
    if (position === undefined) fail(`--from: "${values.from}" is not a feed position (a change's position or a page's next, as the feed gives it)`);
    given.from = position;
  }
  if (command !== 'add' && command !== 'list' && !canonicalUuid(given.arg))
    fail(`endpoint id must be a UUID, as npm run webhooks -- list shows it; got "${given.arg}"`);
  return [command, given];
}

const commands: Record<Command, (db: Database, given: Given) => Promise<void>> = {
  async add(db, { arg, companies, events, allowPrivateTargets }) {
    const added = await addEndpoint(db, { url: arg, companies, events, allowPrivateTargets });
    say(`added endpoint ${added.id} -> ${added.url} for ${companies.join(', ')}, ${events ? `kinds ${events.join(', ')}` : 'every kind'}`);
    say(`it receives the changes committed from now on (replay ${added.id} --from <position> sends earlier ones)`);
    say(`signing secret (shown once, store it now): ${added.secret}`);
  },

  async list(db) {
    const endpoints = await listEndpoints(db);
    if (!endpoints.length) say('no webhook endpoints yet (npm run webhooks -- add <url> --companies <id,...> makes one)');
    const now = new Date();
    for (const e of endpoints) say(describeEndpoint(e, now));
  },

  async remove(db, { arg }) {
    if (!(await removeEndpoint(db, arg))) throw unknownEndpoint(arg);
    say(`removed endpoint ${arg}: nothing more is sent to it`);
  },

  async 'rotate-secret'(db, { arg, overlapMs }) {
    const { secret, previousValidUntil } = await rotateSecret(db, arg, overlapMs);
    say(previousValidUntil ? `the previous secret also signs until ${previousValidUntil.toISOString()}` : 'the previous secret stops signing now');
    say(`signing secret (shown once, store it now): ${secret}`);
  },

  async deliveries(db, { arg, limit }) {
    if (!(await findEndpoint(db, arg))) throw unknownEndpoint(arg);
    const attempts = await listDeliveries(db, arg, limit);
    if (!attempts.length) say(`no delivery to ${arg} attempted yet (or none in the last 7 days)`);
    for (const d of attempts)
      say(
        `${d.attemptedAt.toISOString()}  ${d.deliveryId}  attempt ${d.attempt}  ${d.outcome}${d.status === null ? '' : ` (HTTP ${d.status})`}  ` +
          `${d.changes} change${d.changes === 1 ? '' : 's'} after ${cursorOf(d.afterPosition)} through ${cursorOf(d.throughPosition)}  ${d.durationMs} ms`,
      );
  },

  async replay(db, { arg, from }) {
    await replayEndpoint(db, arg, from);
    say(`endpoint ${arg} delivers again the changes after ${encodeChangeCursor(from)}, in order, then carries on`);
  },

  async enable(db, { arg }) {
    await enableEndpoint(db, arg);
    say(`endpoint ${arg} enabled: it delivers again from the batch it stopped at`);
  },
};

function describeEndpoint(e: WebhookEndpoint, now: Date): string {
  const state = e.disabledAt ? `disabled ${e.disabledAt.toISOString()}: ${e.disabledReason}` : 'active';
  const lines = [
    `${e.id}  ${e.disabledAt ? 'disabled' : 'active  '}  ${e.url}  [${e.companies.join(', ')}]  ${e.events ? `kinds ${e.events.join(', ')}` : 'every kind'}`,
    `    delivered through ${cursorOf(e.deliveredPosition)}; created ${e.createdAt.toISOString()}`,
  ];
  if (e.disabledAt) lines.push(`    ${state}`);
  if (e.pendingId)
    lines.push(
      `    pending ${e.pendingId} (through ${cursorOf(e.pendingThrough!)}), ${e.attempts} failed attempt${e.attempts === 1 ? '' : 's'}` +
        `${e.firstFailedAt ? ` since ${e.firstFailedAt.toISOString()}` : ''}, next ${e.nextAttemptAt.toISOString()}`,
    );
  if (e.previousSecret && e.previousSecretValidUntil && e.previousSecretValidUntil > now)
    lines.push(`    previous secret also signs until ${e.previousSecretValidUntil.toISOString()}`);
  return lines.join('\n');
}

/** A stored position as the feed shows it; 0 is the feed's start. */
const cursorOf = (position: string) => (position === '0' ? 'the start' : encodeChangeCursor(BigInt(position)));

const listOf = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function kindsOrFail(text: string): string[] {
  const kinds = [...new Set(listOf(text))];
  const unknown = kinds.find((k) => !(changeKinds as readonly string[]).includes(k));
  if (!kinds.length || unknown !== undefined) fail(`--events: unknown kind "${unknown ?? ''}" (one of ${changeKinds.join(', ')})`);
  return kinds;
}

function overlapOrFail(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) fail(`--overlap: "${text}" is not a duration (use e.g. 30m, 24h, 7d, or 0)`);
  if (ms > MAX_SECRET_OVERLAP_MS) fail(`--overlap may be at most 7d; got "${text}"`);
  return ms;
}

main(process.argv.slice(2)).catch(failOn);
