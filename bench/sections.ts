// Sections of bench/results/latest.md that a focused run writes (`--replica`, `--imports`)
// and a full run keeps: each between a begin and an end marker, replaced in place, or
// added at the end when absent.

/** `markdown` with `section` (markers included) in place of the one between `begin` and `end`, or at its end. */
export function replaceSection(markdown: string, begin: string, end: string, section: string): string {
  const start = markdown.indexOf(begin);
  const stop = markdown.indexOf(end);
  if (start >= 0 && stop > start) return markdown.slice(0, start) + section + markdown.slice(stop + end.length).replace(/^\n/, '');
  return `${markdown.trimEnd()}\n\n${section}`;
}

/** The Markdown a focused run starts from when there is no latest.md yet. */
export const EMPTY_REPORT = '# Benchmark report\n';
