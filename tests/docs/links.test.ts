// The documentation holds together inside the repository: every relative link in a
// Markdown file points at a file that exists (and, with a #fragment, at a heading of it),
// and no file refers to the notes this project was started from, which live outside it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

/** The repository's files: tracked ones, and new ones not ignored (a page being written is checked too). */
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file && existsSync(join(root, file)) && statSync(join(root, file)).isFile());
const markdown = files.filter((file) => file.endsWith('.md'));

/** Markdown with its code (fenced blocks and inline spans) blanked out: a link there is an example, not a link. */
function withoutCode(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '``');
}

/** The targets of inline links and images `[text](target "title")` and of reference definitions `[id]: target`. */
function linkTargets(text: string): string[] {
  const prose = withoutCode(text);
  const inline = [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+["'(][^)]*)?\)/g)].map((m) => m[1]!);
  const definitions = [...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!);
  return [...inline, ...definitions];
}

/** The anchors GitHub gives a Markdown file's headings (its slugger), and any explicit `id` or `name`. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutCode(text.replace(/`([^`\n]*)`/g, '$1')).matchAll(/^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/gm)) {
    const visible = heading!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const slug = visible
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const [, id] of text.matchAll(/<a\s[^>]*\b(?:id|name)=["']([^"']+)["']/g)) anchors.add(id!);
  return anchors;
}

describe('Markdown links', () => {
  it('finds the README and the docs', () => {
    expect(markdown).toContain('README.md');
    expect(markdown.filter((file) => file.startsWith('docs/')).length).toBeGreaterThan(10);
  });

  it('point at files inside the repository that exist, and at headings that exist', () => {
    const broken: string[] = [];
    for (const file of markdown) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const target of linkTargets(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // another site, or mailto:
        const [path = '', fragment] = target.split('#', 2) as [string, string | undefined];
        const decoded = decodeURIComponent(path);
        const resolved = decoded === '' ? join(root, file) : decoded.startsWith('/') ? join(root, decoded) : resolve(root, dirname(file), decoded);
        const inside = relative(root, resolved);
        if (inside.startsWith('..') || isAbsolute(inside)) {
          broken.push(`${file}: ${target} leaves the repository`);
        } else if (!existsSync(resolved)) {
          broken.push(`${file}: ${target} does not exist`);
        } else if (fragment && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(decodeURIComponent(fragment))) {
          broken.push(`${file}: ${target} names no heading of ${inside}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('are found, and so are broken ones (the check itself)', () => {
    const sample = '[a](docs/x.md#y) ![b](img.png "t") `[no](code.md)`\n```\n[no](block.md)\n```\n[ref]: ../out.md\n';
    expect(linkTargets(sample)).toEqual(['docs/x.md#y', 'img.png', '../out.md']);
    expect(anchorsOf('# `asOf` is the instant\n## Keeping it (for editors)\n## Keeping it (for editors)\n')).toEqual(
      new Set(['asof-is-the-instant', 'keeping-it-for-editors', 'keeping-it-for-editors-1']),
    );
  });
});

describe('References outside the repository', () => {
  // Spelled in pieces, so that this file does not name them itself.
  const outside = [['DECISIONS', 'md'].join('.'), ['service-description', 'md'].join('.'), ['..', 'shared'].join('/')];

  it('appear in no file', () => {
    const found: string[] = [];
    for (const file of files) {
      const bytes = readFileSync(join(root, file));
      if (bytes.subarray(0, 8000).includes(0)) continue; // binary
      const lines = bytes.toString('utf8').split('\n');
      lines.forEach((line, i) => {
        for (const needle of outside) if (line.includes(needle)) found.push(`${file}:${i + 1}: ${needle}`);
      });
    }
    expect(found).toEqual([]);
  });
});
