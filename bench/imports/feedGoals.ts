// The change feed's goals (issue 58), read from the same run as the import goals: each file
// with the feed on against the same file with it off, turn by turn from the same stated
// state; pages of 1,000 changes read at the run's dataset size; a webhook delivery from an
// import's commit to a receiver on this machine.
import { latencyMs as ms } from '../report/format.js';
import type { TargetCheck } from '../report/summary.js';
import { round } from '../stats.js';
import { FEED_OFF, type FeedMeasured, type ImportRow, type ImportRunResult } from './results.js';

export const FEED_GOALS = {
  /** A file's seconds with the feed over its seconds without, each turn, at most. */
  onOverOff: 1.25,
  /** A page of 1,000 changes, p99 ms, below. */
  readP99Ms: 50,
  readLimit: 1000,
  /** From an import's commit to the receiver, p99 ms, below. */
  deliveryP99Ms: 1000,
} as const;

export interface FeedPair {
  file: FeedMeasured;
  repetition: number;
  on: ImportRow;
  off: ImportRow;
}

/** Each file's turn with the feed on beside the same turn with it off (where both ran). */
export function feedPairs(result: Pick<ImportRunResult, 'rows'>): FeedPair[] {
  const pairs: FeedPair[] = [];
  for (const file of Object.keys(FEED_OFF) as FeedMeasured[])
    for (const on of result.rows.filter((r) => r.measurement === file)) {
      const off = result.rows.find((r) => r.measurement === FEED_OFF[file] && r.repetition === on.repetition);
      if (off) pairs.push({ file, repetition: on.repetition, on, off });
    }
  return pairs;
}

export const onOverOff = (pair: FeedPair) => pair.on.seconds / pair.off.seconds;

/** The feed's goals, where the run measured them (runs before 2026-11-29 did not). */
export function feedGoals(result: ImportRunResult): TargetCheck[] {
  const goals: TargetCheck[] = [];
  const bound = FEED_GOALS.onOverOff;
  for (const file of Object.keys(FEED_OFF) as FeedMeasured[]) {
    const pairs = feedPairs(result).filter((p) => p.file === file);
    if (!pairs.length) continue;
    const each = pairs.map((p) => `${p.repetition}: ${p.on.seconds} against ${p.off.seconds} s (${round(onOverOff(p), 2)}×)`);
    goals.push({
      goal: `${file === 'initial load' ? 'initial load' : `${file} file`} with the change feed: at most ${bound}× the same file without it, each turn`,
      measured: each.join('; '),
      met: pairs.every((p) => onOverOff(p) <= bound),
    });
  }
  const reads = result.feedReads;
  if (reads) {
    const people = result.options.people.toLocaleString('en-US');
    goals.push({
      goal: `reading ${FEED_GOALS.readLimit.toLocaleString('en-US')} changes at ${people} people: p99 < ${FEED_GOALS.readP99Ms} ms`,
      measured: `p99 ${ms(reads.p99Ms)} ms, p50 ${ms(reads.p50Ms)} ms, max ${ms(reads.maxMs)} ms; ${reads.samples} pages of ${reads.limit} from one company's ${reads.companyChanges.toLocaleString('en-US')} changes`,
      met: reads.limit === FEED_GOALS.readLimit && reads.p99Ms < FEED_GOALS.readP99Ms,
    });
  }
  const delivery = result.webhookDelivery;
  if (delivery) {
    goals.push({
      goal: `webhook delivery to a receiver on this machine within ${FEED_GOALS.deliveryP99Ms / 1000} s of the import's commit: p99`,
      measured: `p99 ${ms(delivery.p99Ms)} ms, p50 ${ms(delivery.p50Ms)} ms, max ${ms(delivery.maxMs)} ms; ${delivery.samples} imports, the worker polling every ${delivery.pollIntervalMs} ms`,
      met: delivery.p99Ms < FEED_GOALS.deliveryP99Ms,
    });
  }
  return goals;
}
