// The marked sections of latest.md that focused runs (`--replica`, `--imports`) write and a
// full run keeps: replaced in place, added at the end when absent.
import { describe, expect, it } from 'vitest';
import { replaceSection } from '../../bench/sections.js';

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
