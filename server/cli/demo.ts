// npm run demo:export -- [people] [seed]   writes the demo dataset as NDJSON to stdout,
// a worked example of the import format. Arguments are checked before anything is written.
import { demoDataset } from '../demo/dataset.js';
import { failUsage, parseCommandLine } from './commandLine.js';

const usage = `usage: npm run demo:export -- [people] [seed] > demo.ndjson
Writes the demo dataset (the one npm start loads: 300 people, seed 20261120) as NDJSON, the
import's format, as of 2026-11-20T12:00:00Z (npm start loads it as of its start). people: a whole number from 1 to 100,000 (it is built in memory);
seed: a whole number, the same seed writing the same data.`;

const MAX_PEOPLE = 100_000;

/** A positional argument as a whole number within bounds, or a failure naming it. */
function wholeNumber(name: string, given: string | undefined, min: number, max: number): number | undefined {
  if (given === undefined) return undefined;
  const n = Number(given);
  if (!/^\d+$/.test(given) || n < min || n > max)
    failUsage(`${name} must be a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}; got "${given}"`, usage);
  return n;
}

const { positionals } = parseCommandLine(process.argv.slice(2), {}, usage);
if (positionals.length > 2) failUsage(`at most two arguments, people and seed; got ${positionals.length}`, usage);
const people = wholeNumber('people', positionals[0], 1, MAX_PEOPLE);
const seed = wholeNumber('seed', positionals[1], 0, Number.MAX_SAFE_INTEGER);
for (const record of demoDataset({ people, seed })) process.stdout.write(`${JSON.stringify(record)}\n`);
