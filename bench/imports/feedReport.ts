// The change feed's part of the import section (report.ts): each file's turns with the feed
// on and off side by side, and how the feed's pages and webhook deliveries were measured.
import { latencyMs as ms, table } from '../report/format.js';
import { round } from '../stats.js';
import { FEED_GOALS, feedPairs, onOverOff } from './feedGoals.js';
import type { ImportRunResult } from './results.js';

export function feedLines(result: ImportRunResult): string[] {
  const pairs = feedPairs(result);
  const lines: string[] = [];
  if (pairs.length) {
    lines.push(
      "**The change feed on and off** (issue 58). Each file is applied once more per turn with the feed's triggers disabled " +
        '(`bench/imports/feed.ts`; the feed is then marked pruned, so no follower reads across the gap), from the same stated state, ' +
        'the feed on first in odd turns and off first in even ones. ' +
        (result.workingCopies
          ? 'A change or churn file with the feed off runs on a fresh copy of the bench database of its own, as the file with the feed on does. '
          : 'A change or churn file applied with the feed off is restored by its inverse with the feed on (not a row). ') +
        `Goal: with the feed, at most ${FEED_GOALS.onOverOff}× without, each turn.`,
      '',
      ...table(
        ['File', 'turn', 'feed on s', 'feed off s', 'on / off'],
        pairs.map((p) => [p.on.label, String(p.repetition), String(p.on.seconds), String(p.off.seconds), `${round(onOverOff(p), 2)}×`]),
        2,
      ),
      '',
    );
  }
  const reads = result.feedReads;
  if (reads)
    lines.push(
      `**Reading the feed:** ${reads.samples} pages of up to ${reads.limit} changes of the company with the most changes (${reads.companyChanges.toLocaleString('en-US')}, ` +
        `as the first initial load recorded them in its database), each after a random place, through the service's own read: ` +
        `p50 ${ms(reads.p50Ms)} ms, p99 ${ms(reads.p99Ms)} ms, max ${ms(reads.maxMs)} ms.`,
      '',
    );
  const delivery = result.webhookDelivery;
  if (delivery)
    lines.push(
      `**Webhook deliveries:** the service in its own process on ${result.workingCopies ? 'a copy of the bench database' : 'the bench database'}, its worker polling every ${delivery.pollIntervalMs} ms, ` +
        `an endpoint on 127.0.0.1; ${delivery.samples} imports of one new employment each, spaced by a random pause, each timed from the import's return ` +
        `(its commit) to the delivery that carries it: p50 ${ms(delivery.p50Ms)} ms, p99 ${ms(delivery.p99Ms)} ms, max ${ms(delivery.maxMs)} ms.`,
      '',
    );
  return lines;
}
