// Bundles a split contract tree (openapi.yaml $ref-ing components/ and paths/) into one
// document with Redocly, using that tree's own redocly.yaml, exactly as `npm run generate`
// does for the working copy. The diff library needs one document with internal $refs only.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';

const run = promisify(execFile);
const toolRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const redocly = join(toolRoot, 'node_modules', '.bin', 'redocly');

export type OpenApiDocument = Record<string, any>;

/** The api alias to bundle: `full` where the tree's redocly.yaml defines it, else the bare root file. */
function bundleTarget(treeDir: string): string {
  const config = join(treeDir, 'redocly.yaml');
  if (existsSync(config) && parse(readFileSync(config, 'utf8'))?.apis?.full) return 'full';
  return 'openapi.yaml';
}

/** Runs `redocly bundle` inside treeDir and returns the bundled document. */
export async function bundleContract(treeDir: string): Promise<OpenApiDocument> {
  const out = mkdtempSync(join(tmpdir(), 'spec-diff-bundle-'));
  try {
    const output = join(out, 'openapi.yaml');
    await run(redocly, ['bundle', bundleTarget(treeDir), '--output', output, '--lint-config', 'off'], {
      cwd: treeDir,
      env: { ...process.env, NO_UPDATE_NOTIFIER: '1', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_TELEMETRY: 'off' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stderr?: string; message: string }) => {
      throw new Error(`redocly bundle failed in ${treeDir}:\n${error.stderr || error.message}`);
    });
    return parse(readFileSync(output, 'utf8'));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
