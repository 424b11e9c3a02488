// The real CLI, end to end, against a temporary git repository holding a copy of this
// contract: git archive of the old commit, Redocly bundles of both sides, exit codes.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const projectRoot = resolve(import.meta.dirname, '..', '..');
const repo = mkdtempSync(join(tmpdir(), 'spec-diff-repo-'));
const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: gitEnv, stdio: 'pipe' }).toString();

function specDiff(ref: string) {
  const result = spawnSync(join(projectRoot, 'node_modules', '.bin', 'tsx'), [join(projectRoot, 'scripts', 'spec-diff', 'main.ts'), ref], {
    cwd: repo,
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
function edit(file: string, from: string, to: string) {
  const path = join(repo, file);
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
}

beforeAll(() => {
  git('init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), 'before the contract\n');
  git('add', '.');
  git('commit', '-q', '-m', 'first commit, no contract yet');
  for (const part of ['openapi.yaml', 'redocly.yaml', 'components', 'paths', 'tools']) cpSync(join(projectRoot, part), join(repo, part), { recursive: true });
  git('add', '.');
  git('commit', '-q', '-m', 'the contract');
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('npm run spec:diff (scripts/spec-diff/main.ts)', () => {
  it('reports "no previous contract" and exits 0 against a commit without one', () => {
    const { code, stdout } = specDiff('HEAD~1');
    expect(stdout).toContain('No previous contract');
    expect(code).toBe(0);
  });

  it('exits 1 with a Markdown report when a public response loses a required field', () => {
    edit('components/schemas/HelloResponse.yaml', 'required: [message]', 'required: []');
    edit('paths/persons-search.yaml', 'summary: Search persons (draft)', 'summary: Search for persons (draft)');
    try {
      const { code, stdout } = specDiff('HEAD');
      expect(stdout).toMatch(/^## Contract changes: `HEAD` \([0-9a-f]{7}\) → working copy/);
      expect(stdout).toContain('**1 breaking change to public operations.**');
      expect(stdout).toContain('| `GET /v1/companies/{companyId}/hello` hello | 1 | 0 | 0 | 0 |');
      expect(stdout).toContain('| `POST /v1/persons/search` searchPersons (draft) | 0 | 0 | 1 | 0 |');
      expect(stdout).toMatch(/required status from `message`/);
      expect(code).toBe(1);
    } finally {
      git('checkout', '-q', '--', '.');
    }
  }, 60_000);

  it('exits 0 when only a draft operation breaks, and still reports it', () => {
    // The page size both searches share (PageLimit): one breaking change to each.
    edit('components/schemas/PageLimit.yaml', 'maximum: 100', 'maximum: 20');
    try {
      const { code, stdout } = specDiff('HEAD');
      expect(stdout).toContain('**No breaking change to a public operation.**');
      expect(stdout).toContain('2 breaking changes to draft operations, allowed');
      expect(stdout).toMatch(/maximum validator of `limit`.*\(100 → 20\)/);
      expect(code).toBe(0);
    } finally {
      git('checkout', '-q', '--', '.');
    }
  }, 60_000);

  it('exits 2 on an unknown ref or a missing one', () => {
    const unknown = specDiff('no-such-branch');
    expect(unknown.stderr).toContain('unknown git ref: no-such-branch');
    expect(unknown.code).toBe(2);
    const missing = spawnSync(join(projectRoot, 'node_modules', '.bin', 'tsx'), [join(projectRoot, 'scripts', 'spec-diff', 'main.ts')], {
      cwd: repo,
      encoding: 'utf8',
    });
    expect(missing.stderr).toContain('usage:');
    expect(missing.status).toBe(2);
  });
});
