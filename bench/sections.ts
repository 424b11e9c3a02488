// Sections of bench/results/latest.md that a focused run writes (`--replica`, `--imports`,
// `--tracing`) and a full run keeps: each between a begin and an end marker, replaced in
// place, or added at the end when absent; its figures kept in a JSON file beside latest.md.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunStamp } from './machine.js';

/** `markdown` with `section` (markers included) in place of the one between `begin` and `end`, or at its end. */
export function replaceSection(markdown: string, begin: string, end: string, section: string): string {
  const start = markdown.indexOf(begin);
  const stop = markdown.indexOf(end);
  if (start >= 0 && stop > start) return markdown.slice(0, start) + section + markdown.slice(stop + end.length).replace(/^\n/, '');
  return `${markdown.trimEnd()}\n\n${section}`;
}

/** The Markdown a focused run starts from when there is no latest.md yet. */
export const EMPTY_REPORT = '# Benchmark report\n';

/** A focused run's section: its markers, the JSON file beside latest.md that keeps its figures, and how they read. */
export interface ResultsSection<Result> {
  begin: string;
  end: string;
  resultsFile: string;
  render(result: Result): string;
}

/** The section of `--${flag}`, kept in `${name}.json`: `render`'s lines between its markers. */
export function focusedSection<Result>(name: string, flag: string, render: (result: Result) => string[]): ResultsSection<Result> {
  const begin = `<!-- ${name}: written by npm run bench -- --${flag} -->`;
  const end = `<!-- /${name} -->`;
  return { begin, end, resultsFile: `${name}.json`, render: (result) => `${begin}\n${render(result).join('\n').trimEnd()}\n${end}\n` };
}

/** How a focused section says where its figures come from: the command, when, which commit, and how busy the machine was. */
export const ranAs = (flag: string, run: RunStamp, what: string) =>
  `From \`npm run bench -- --${flag}\`: run ${run.startedAt} → ${run.finishedAt}, commit ${run.revision}; ${what}; ` +
  `load average (1 min) ${run.loadAverage.start} at the start, ${run.loadAverage.end} at the end.`;

/** `markdown` with the section rendered from `outDir`'s results file in place of the one it holds, or at its end; as it was without that file. */
export function withResultsSection<Result>(markdown: string, outDir: string, section: ResultsSection<Result>): string {
  const file = join(outDir, section.resultsFile);
  if (!existsSync(file)) return markdown;
  return replaceSection(markdown, section.begin, section.end, section.render(JSON.parse(readFileSync(file, 'utf8')) as Result));
}

/** Writes a focused run's figures to its results file, then its section into latest.md (begun where there is none). */
export function writeResultsSection<Result>(result: Result, outDir: string, section: ResultsSection<Result>): void {
  writeFileSync(join(outDir, section.resultsFile), `${JSON.stringify(result, null, 2)}\n`);
  const latest = join(outDir, 'latest.md');
  writeFileSync(latest, withResultsSection(existsSync(latest) ? readFileSync(latest, 'utf8') : EMPTY_REPORT, outDir, section));
}
