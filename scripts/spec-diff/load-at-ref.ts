// Loads the contract as it was at a git ref: the whole tree of that commit is written to a
// temporary folder (the contract is split over many files, and its redocly.yaml and plugins
// belong to the same commit) and bundled there. Nothing in the working copy is touched.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleContract, type OpenApiDocument } from './bundle.js';

export type ContractAtRef = { ref: string; commit: string; document: OpenApiDocument } | { ref: string; commit: string; document: undefined }; // openapi.yaml did not exist at that commit

export class UnknownRefError extends Error {}

function git(projectDir: string, args: string[], input?: Buffer): Buffer {
  return execFileSync('git', args, { cwd: projectDir, input, maxBuffer: 1024 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** The commit a ref names, or UnknownRefError. */
export function resolveCommit(projectDir: string, ref: string): string {
  try {
    return git(projectDir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])
      .toString()
      .trim();
  } catch {
    throw new UnknownRefError(`unknown git ref: ${ref}`);
  }
}

export async function loadContractAtRef(projectDir: string, ref: string): Promise<ContractAtRef> {
  const commit = resolveCommit(projectDir, ref);
  // The project may live in a subfolder of the repository: archive only that subtree.
  const prefix = git(projectDir, ['rev-parse', '--show-prefix']).toString().trim();
  try {
    git(projectDir, ['cat-file', '-e', `${commit}:${prefix}openapi.yaml`]);
  } catch {
    return { ref, commit, document: undefined };
  }
  const tree = mkdtempSync(join(tmpdir(), 'spec-diff-tree-'));
  try {
    const archive = git(projectDir, ['archive', '--format=tar', prefix ? `${commit}:${prefix}` : commit]);
    execFileSync('tar', ['-x', '-C', tree], { input: archive, maxBuffer: 16 * 1024 * 1024 });
    return { ref, commit, document: await bundleContract(tree) };
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}
