// A release names one version everywhere: the contract's info.version, client/package.json,
// the User-Agent and the newest changelog entry (scripts/release/versions.ts says why). The
// release workflow's check, run as the workflow runs it, refuses a tag that names another.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { disagreements, statedVersions } from '../../scripts/release/versions.js';

const repo = resolve(import.meta.dirname, '../..');
const stated = statedVersions();

/** `npm run release:check -- <args>` as the workflow runs it: exit code and output. */
async function releaseCheck(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('npm', ['run', '--silent', 'release:check', '--', ...args], { cwd: repo });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout, err: failed.stderr };
  }
}

describe('the client’s version', () => {
  it('is the contract’s, in client/package.json, the User-Agent and the changelog alike', () => {
    expect(semver.valid(stated.contract)).toBe(stated.contract);
    expect(disagreements(stated)).toEqual([]);
    expect(stated).toEqual({ contract: stated.contract, package: stated.contract, userAgent: stated.contract, changelog: stated.contract });
  });

  it('says what disagrees when one place is not bumped', () => {
    expect(disagreements({ ...stated, package: '0.2.0' })).toEqual([`package says 0.2.0, the contract's info.version ${stated.contract}`]);
    expect(disagreements({ ...stated, changelog: undefined })).toEqual([`changelog says nothing, the contract's info.version ${stated.contract}`]);
  });

  it('has a changelog entry per release, newest first', () => {
    const headings = [...readFileSync(resolve(repo, 'client/CHANGELOG.md'), 'utf8').matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    expect(headings.every((h) => semver.valid(h) === h)).toBe(true);
    expect(headings).toEqual([...headings].sort(semver.rcompare));
    expect(headings).toEqual(expect.arrayContaining(['0.1.0', '0.2.0', stated.contract]));
  });
});

describe('npm run release:check', () => {
  it('passes the tag of the stated version (exit 0)', async () => {
    const { code, out } = await releaseCheck(`v${stated.contract}`);
    expect(code).toBe(0);
    expect(out.trim()).toBe(`release v${stated.contract}: contract, client/package.json, User-Agent and changelog agree`);
  });

  it('refuses another tag, in one line (exit 2)', async () => {
    const { code, err } = await releaseCheck('v9.9.9');
    expect(code).toBe(2);
    expect(err.trim()).toBe(`release refused: tag v9.9.9 is not v${stated.contract}, the version the contract and the client state`);
  });

  it('asks for the tag when none is given (exit 1)', async () => {
    const { code, err } = await releaseCheck();
    expect(code).toBe(1);
    expect(err.trim()).toMatch(/^usage: npm run release:check -- v<version>/);
  });
});
