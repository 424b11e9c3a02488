// What the operators' pages show, read from them so that the tests that run the commands
// compare against the pages themselves: a table under a heading, or the sessions of a
// `console` block (`$ command` lines, each followed by what it prints).
import { readFileSync } from 'node:fs';

const page = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The section of `path` under the heading `heading` (any level), up to the next heading of that level or above. */
export function docSection(path: string, heading: string): string {
  const text = page(path);
  const match = new RegExp(`^(#+) ${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'm').exec(text);
  if (!match) throw new Error(`${path} has no heading "${heading}"`);
  const rest = text.slice(match.index + match[0].length);
  const next = new RegExp(`^#{1,${match[1]!.length}} `, 'm').exec(rest);
  return next ? rest.slice(0, next.index) : rest;
}

/** The rows of the first table in the section, each cell with its code quotes taken off. */
export function docTable(path: string, heading: string): string[][] {
  const rows = docSection(path, heading)
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim().replace(/^`(.*)`$/, '$1')),
    );
  if (rows.length < 3) throw new Error(`${path} "${heading}": no table`);
  return rows.slice(2);
}

export interface Session {
  /** The command line after `$ `. */
  command: string;
  /** The lines it prints. */
  output: string[];
}

/** Every `$ command` of the `console` blocks in the section, with the lines after it. */
export function docSessions(path: string, heading: string): Session[] {
  const sessions: Session[] = [];
  for (const block of docSection(path, heading).matchAll(/^```console\n([\s\S]*?)^```/gm)) {
    for (const line of block[1]!.split('\n')) {
      if (line.startsWith('$ ')) sessions.push({ command: line.slice(2), output: [] });
      else if (line && sessions.length) sessions.at(-1)!.output.push(line);
    }
  }
  return sessions;
}
