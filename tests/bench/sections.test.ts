// The marked sections of latest.md that focused runs (`--replica`, `--imports`) write and a
// full run keeps: replaced in place, added at the end when absent.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_REPORT, type ResultsSection, replaceSection, withResultsSection, writeResultsSection } from '../../bench/sections.js';

const BEGIN = '<!-- x -->';
const END = '<!-- /x -->';
const section = (body: string) => `${BEGIN}\n${body}\n${END}\n`;

describe('replaceSection', () => {
  it('adds the section at the end when there is none', () => {
    expect(replaceSection('# Report\n\n## Targets\n', BEGIN, END, section('new'))).toBe(`# Report\n\n## Targets\n\n${section('new')}`);
  });

  it('replaces the section in place, keeping what comes before and after it', () => {
    const markdown = `# Report\n\n${section('old')}\n## After\n`;
    expect(replaceSection(markdown, BEGIN, END, section('new'))).toBe(`# Report\n\n${section('new')}\n## After\n`);
  });

  it('leaves another section alone', () => {
    const other = '<!-- y -->\ny\n<!-- /y -->\n';
    const markdown = `# Report\n\n${other}`;
    expect(replaceSection(markdown, BEGIN, END, section('new'))).toBe(`# Report\n\n${other}\n${section('new')}`);
  });
});

describe('a focused run writing its results section', () => {
  const figures: ResultsSection<{ n: number }> = { begin: BEGIN, end: END, resultsFile: 'x.json', render: (r) => section(`n = ${r.n}`) };
  let outDir: string;
  beforeEach(() => {
    outDir = mkdtempSync(join(tmpdir(), 'lookup-sections-'));
  });
  afterEach(() => rmSync(outDir, { recursive: true, force: true }));

  it('writes its figures and its section, starting latest.md where there is none, and replaces both when run again', () => {
    const latest = join(outDir, 'latest.md');
    writeResultsSection({ n: 1 }, outDir, figures);
    expect(readFileSync(join(outDir, 'x.json'), 'utf8')).toBe('{\n  "n": 1\n}\n');
    expect(readFileSync(latest, 'utf8')).toBe(`${EMPTY_REPORT}\n${section('n = 1')}`);
    writeResultsSection({ n: 2 }, outDir, figures);
    expect(JSON.parse(readFileSync(join(outDir, 'x.json'), 'utf8'))).toEqual({ n: 2 });
    expect(readFileSync(latest, 'utf8')).toBe(`${EMPTY_REPORT}\n${section('n = 2')}`);
  });

  it("keeps the last run's section in a full run's report, and leaves the report as it is without figures", () => {
    expect(withResultsSection('# Report\n', outDir, figures)).toBe('# Report\n');
    writeFileSync(join(outDir, 'x.json'), JSON.stringify({ n: 3 }));
    expect(withResultsSection('# Report\n', outDir, figures)).toBe(`# Report\n\n${section('n = 3')}`);
  });
});
