// A run's raw measurements as the report: medians over the rounds, the targets met or not,
// as JSON and as Markdown (bench/report/, one renderer a section).
import { crashesSection, headerSection, targetsSection } from './report/overview.js';
import { enginesSection, helloSection } from './report/persons.js';
import { coldStarts, type Report, summarize } from './report/summary.js';
import { evaluateTargets } from './report/targets.js';
import type { RunResult } from './run.js';

export type { Report } from './report/summary.js';

export function buildReport(raw: RunResult): Report {
  const summary = summarize(raw);
  return { summary, coldStartMs: coldStarts(raw), targets: evaluateTargets(raw, summary), raw };
}

const sections = [headerSection, targetsSection, helloSection, enginesSection, crashesSection];

export function renderMarkdown(report: Report): string {
  return sections.flatMap((section) => section(report)).join('\n');
}
