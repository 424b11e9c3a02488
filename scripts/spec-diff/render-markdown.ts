// The review report: a verdict first, a table of touched operations, then each operation's
// changes by kind. Plain GitHub-flavoured Markdown, to paste into a pull request.
import type { Change, ChangeKind, ContractChanges, OperationChanges } from './classify.js';

export interface ReportHeader {
  ref: string;
  commit: string;
}

const HEADINGS: Record<ChangeKind, string> = {
  breaking: 'Breaking',
  'non-breaking': 'Non-breaking',
  unclassified: 'Unclassified (the diff library could not tell; judge by hand)',
  documentation: 'Documentation',
};

const title = ({ ref, commit }: ReportHeader) => `## Contract changes: \`${ref}\`${commit.startsWith(ref) ? '' : ` (${commit.slice(0, 7)})`} → working copy`;
const count = (changes: Change[], kind: ChangeKind) => changes.filter((c) => c.kind === kind).length;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const operationName = (op: OperationChanges) => `\`${op.method} ${op.path}\`${op.operationId ? ` ${op.operationId}` : ''}${op.draft ? ' (draft)' : ''}`;

function section(heading: string, changes: Change[]): string[] {
  const lines = [`### ${heading}`, ''];
  for (const kind of Object.keys(HEADINGS) as ChangeKind[]) {
    const ofKind = changes.filter((c) => c.kind === kind);
    if (ofKind.length === 0) continue;
    const items = ofKind.map((change) => `- ${change.description}  \n  at \`${change.location}\``);
    // Documentation changes matter least in a review and repeat wherever a component is used: folded.
    if (kind === 'documentation') lines.push(`<details><summary>${HEADINGS[kind]}: ${ofKind.length}</summary>`, '', ...items, '', '</details>', '');
    else lines.push(`**${HEADINGS[kind]}**`, '', ...items, '');
  }
  return lines;
}

export function renderNoPreviousContract(header: ReportHeader): string {
  return [title(header), '', `No previous contract: \`openapi.yaml\` did not exist at \`${header.ref}\`. Nothing to compare.`, ''].join('\n');
}

export function renderMarkdown(result: ContractChanges, header: ReportHeader): string {
  const lines = [title(header), ''];
  const all = [...result.operations.flatMap((op) => op.changes), ...result.document];
  if (all.length === 0) return [...lines, 'No contract changes.', ''].join('\n');

  const draftBreaking = result.operations.filter((op) => op.draft).reduce((n, op) => n + count(op.changes, 'breaking'), 0);
  lines.push(
    result.blocking > 0
      ? `**${plural(result.blocking, 'breaking change')} to public operations.** Existing consumers break: make the change compatible, or ship it as a new version.`
      : '**No breaking change to a public operation.**',
  );
  if (draftBreaking > 0) lines.push('', `${plural(draftBreaking, 'breaking change')} to draft operations, allowed: drafts carry no compatibility promise.`);
  lines.push('', '| Operation | Breaking | Non-breaking | Documentation | Unclassified |', '|---|---:|---:|---:|---:|');
  const row = (name: string, changes: Change[]) =>
    `| ${name} | ${count(changes, 'breaking')} | ${count(changes, 'non-breaking')} | ${count(changes, 'documentation')} | ${count(changes, 'unclassified')} |`;
  for (const op of result.operations) lines.push(row(operationName(op), op.changes));
  if (result.document.length > 0) lines.push(row('Whole document', result.document));
  lines.push('');

  for (const op of result.operations) lines.push(...section(operationName(op), op.changes));
  if (result.document.length > 0) lines.push(...section('Whole document (info, servers, tags, security)', result.document));
  return lines.join('\n');
}
