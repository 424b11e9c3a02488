// Whether the import figures repeat (issue 59: the same code's change file took 7.4 s in
// one run and 18.0 s in the next): each file's applications within a run, and the run
// against the previous one at the same scale (its figures kept in this run's results, read
// from the imports.json it replaces), each within a bound, row by row.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pct } from '../report/format.js';
import type { TargetCheck } from '../report/summary.js';
import { round } from '../stats.js';
import type { ImportRow, ImportRunResult, PreviousRun, RunFigures } from './results.js';

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
/** Slower over faster, less 1: 0.25 is "within 25%". */
const spread = (values: number[]) => Math.max(...values) / Math.min(...values) - 1;

/** A row's floor, where it was measured for that row (a re-apply's is its initial load's, compared there). */
const ownFloor = (r: ImportRow) => (r.measurement === 'unchanged re-apply' ? undefined : r.storedAloneSeconds);

/** Each file's mean seconds and its floor's, the whole dataset's raw COPY, the loads' peak RSS, the searches' worst ratio. */
export function runFigures(result: Pick<ImportRunResult, 'rows' | 'searches' | 'checksAlone'>): RunFigures {
  const figures: RunFigures = {};
  const byLabel = new Map<string, ImportRow[]>();
  for (const r of result.rows) byLabel.set(r.label, [...(byLabel.get(r.label) ?? []), r]);
  for (const [label, rows] of byLabel) {
    figures[`${label}, s`] = round(mean(rows.map((r) => r.seconds)), 3);
    const alone = rows.flatMap((r) => ownFloor(r) ?? []);
    if (alone.length) figures[`${label}: stored rows alone, s`] = round(mean(alone), 3);
  }
  const initial = result.rows.filter((r) => r.measurement === 'initial load');
  if (initial[0]?.copySeconds) figures['raw COPY of the whole dataset, s'] = initial[0].copySeconds;
  if (result.checksAlone) figures["the whole file's checks alone, s"] = result.checksAlone.seconds;
  const rss = initial.flatMap((r) => r.peakRssMb ?? []);
  if (rss.length) figures['initial load: peak RSS, MB'] = Math.max(...rss);
  const searches = result.searches;
  if (searches?.idle.byKind) {
    const ratios = Object.keys(searches.idle.byKind).map((k) => searches.during.byKind[k]!.p99 / searches.idle.byKind[k]!.p99);
    figures['searches during a change: highest p99 over idle'] = round(Math.max(...ratios), 2);
  }
  return figures;
}

/** The previous run's figures from `outDir`'s imports.json, where it measured the same number of people with repetitions. */
export function previousRun(outDir: string, people: number): PreviousRun | undefined {
  const file = join(outDir, 'imports.json');
  if (!existsSync(file)) return undefined;
  try {
    const previous = JSON.parse(readFileSync(file, 'utf8')) as ImportRunResult;
    if (previous.options.people !== people || !previous.repetitions) return undefined;
    return { startedAt: previous.startedAt, revision: previous.revision, figures: runFigures(previous) };
  } catch {
    return undefined;
  }
}

/** The two agreement goals: within the run (each file applied more than once), and with the previous run. */
export function agreement(result: ImportRunResult, bound: number): TargetCheck[] {
  const goals: TargetCheck[] = [];
  const repeated = new Map<string, number[]>();
  for (const r of result.rows) {
    repeated.set(`${r.label}`, [...(repeated.get(r.label) ?? []), r.seconds]);
    const floor = ownFloor(r);
    if (floor !== undefined) repeated.set(`${r.label}: stored rows alone`, [...(repeated.get(`${r.label}: stored rows alone`) ?? []), floor]);
  }
  const within = [...repeated].filter(([, values]) => values.length > 1);
  if (within.length) {
    const each = within.map(([name, values]) => `${name} ${values.join(' / ')} s (${pct(spread(values))})`);
    goals.push({
      goal: `each file's applications in this run agree within ${pct(bound)}`,
      measured: each.join('; '),
      met: within.every(([, values]) => spread(values) <= bound),
    });
  }
  const goal = `this run and the previous one at this scale agree within ${pct(bound)}, row by row`;
  if (!result.previous) {
    goals.push({ goal, measured: 'no previous run at this scale with repetitions', met: undefined });
    return goals;
  }
  const ours = runFigures(result);
  const shared = Object.keys(ours).filter((name) => result.previous!.figures[name] !== undefined);
  const each = shared.map(
    (name) => `${name} ${ours[name]} against ${result.previous!.figures[name]} (${pct(spread([ours[name]!, result.previous!.figures[name]!]))})`,
  );
  const against = `previous run ${result.previous.startedAt}, commit ${result.previous.revision}: `;
  goals.push({ goal, measured: against + each.join('; '), met: shared.every((name) => spread([ours[name]!, result.previous!.figures[name]!]) <= bound) });
  return goals;
}
