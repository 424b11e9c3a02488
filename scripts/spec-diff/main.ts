// `npm run spec:diff -- <git-ref>`: compares the contract at <git-ref> with the working copy,
// prints a Markdown review report on stdout, and exits
//   0  no breaking change to a public (non-draft) operation, or no contract at <git-ref>
//   1  at least one breaking change to a public operation (or to the whole document)
//   2  usage error, unknown ref, or a contract that does not bundle
// Run from the project folder (npm does that); git and the contract are read from there.
import { bundleContract } from './bundle.js';
import { classifyChanges } from './classify.js';
import { loadContractAtRef, resolveCommit, UnknownRefError } from './load-at-ref.js';
import { renderMarkdown, renderNoPreviousContract } from './render-markdown.js';

async function main(argv: string[]): Promise<number> {
  const ref = argv[0];
  if (!ref || argv.length > 1 || ref.startsWith('-')) {
    process.stderr.write('usage: npm run spec:diff -- <git-ref>   (e.g. HEAD~1, main, origin/main)\n');
    return 2;
  }
  const projectDir = process.cwd();
  resolveCommit(projectDir, ref); // fail fast on a typo, before two Redocly runs start
  const [previous, current] = await Promise.all([loadContractAtRef(projectDir, ref), bundleContract(projectDir)]);
  const header = { ref, commit: previous.commit };
  if (!previous.document) {
    process.stdout.write(renderNoPreviousContract(header));
    return 0;
  }
  const changes = classifyChanges(previous.document, current);
  process.stdout.write(renderMarkdown(changes, header));
  return changes.blocking > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`spec:diff: ${error instanceof UnknownRefError ? error.message : error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
