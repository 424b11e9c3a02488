// Turns api-smart-diff's raw diffs between two bundled contracts into what a reviewer needs:
// changes grouped by operation, each sorted into breaking / non-breaking / documentation,
// and whether a change should block the merge. Drafts (`x-draft: true` at either side) may
// break freely; everything else may not.
import { apiCompare, type Diff } from 'api-smart-diff';
import type { OpenApiDocument } from './bundle.js';

export type ChangeKind = 'breaking' | 'non-breaking' | 'documentation' | 'unclassified';

export interface Change {
  kind: ChangeKind;
  /** Human-readable, from the diff library where it has one. */
  description: string;
  /** Where, relative to the operation (or to the document root for document-level changes). */
  location: string;
}

export interface OperationChanges {
  method: string; // upper case
  path: string;
  operationId: string | undefined;
  /** Draft at either side: its changes are reported but never block. */
  draft: boolean;
  changes: Change[];
}

export interface ContractChanges {
  operations: OperationChanges[];
  /** info, servers, tags, security, security schemes: changes that concern every operation. */
  document: Change[];
  /** Breaking changes that block: on non-draft operations, or document-level. */
  blocking: number;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const kindOf: Record<Diff['type'], ChangeKind> = {
  breaking: 'breaking',
  'non-breaking': 'non-breaking',
  deprecated: 'non-breaking',
  annotation: 'documentation',
  unclassified: 'unclassified',
};

// Keys whose changes only alter what the rendered docs say. The library leaves some of them
// (examples, tag descriptions) unclassified; they cannot break a consumer.
const DOCUMENTATION_KEYS = new Set(['description', 'summary', 'title', 'example', 'examples', 'externalDocs', 'tags']);

const isDraft = (operation: any): boolean => operation?.['x-draft'] === true;
const operationAt = (doc: OpenApiDocument, path: string, method: string): any => doc.paths?.[path]?.[method];

function describe(diff: Diff, kind: ChangeKind, location: string): string {
  // Without a library description, name the changed key: the report prints the full location.
  const keys = location.split('.');
  const key = /^\d+$/.test(keys.at(-1)!) && keys.length > 1 ? keys.slice(-2).join('.') : keys.at(-1)!;
  const base = diff.description?.trim() || `[${diff.action[0]!.toUpperCase()}${diff.action.slice(1)}d] ${key}`;
  if (kind === 'documentation') return base; // long prose before/after helps nobody here
  const show = (value: unknown) => {
    if (value === undefined || (typeof value === 'object' && value !== null)) return undefined;
    const text = JSON.stringify(value);
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
  };
  // A value the description already names (a property in `required`) is not repeated.
  const named = (value: unknown) => typeof value === 'string' && base.includes(`\`${value}\``);
  const [before, after] = [named(diff.before) ? undefined : show(diff.before), named(diff.after) ? undefined : show(diff.after)];
  if (diff.action === 'replace' && before && after) return `${base} (${before} → ${after})`;
  if (diff.action === 'add' && after) return `${base} (${after})`;
  if (diff.action === 'remove' && before) return `${base} (was ${before})`;
  return base;
}

function classifyOne(diff: Diff, location: string[], after: OpenApiDocument): ChangeKind {
  const kind = kindOf[diff.type] ?? 'unclassified';
  if (kind === 'unclassified' && location.some((key) => DOCUMENTATION_KEYS.has(key))) return 'documentation';
  if (kind === 'breaking' && addsOnlyImpliedType(diff, after)) return 'non-breaking';
  return kind;
}

/**
 * A `type` added beside a `const` or `enum` whose values all have that type restricts nothing
 * (`{const: forbidden}` and `{type: string, const: forbidden}` accept the same values), though
 * the library calls any added type breaking.
 */
function addsOnlyImpliedType(diff: Diff, after: OpenApiDocument): boolean {
  if (diff.action !== 'add' || diff.path.at(-1) !== 'type' || typeof diff.after !== 'string') return false;
  const node = nodeAt(after, diff.path.slice(0, -1).map(String));
  if (!node) return false;
  const values: unknown[] = 'const' in node ? [node.const, ...(node.enum ?? [])] : (node.enum ?? []);
  const typeOf = (value: unknown) => (value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value);
  return values.length > 0 && values.every((value) => typeOf(value) === diff.after || (diff.after === 'number' && typeOf(value) === 'integer'));
}

/** The node at a diff's path, following the document's own `$ref`s on the way. */
function nodeAt(doc: OpenApiDocument, path: string[]): any {
  const deref = (node: any): any =>
    typeof node?.$ref === 'string' && node.$ref.startsWith('#/')
      ? deref(
          node.$ref
            .slice(2)
            .split('/')
            .map((key: string) => key.replace(/~1/g, '/').replace(/~0/g, '~'))
            .reduce((at: any, key: string) => at?.[key], doc),
        )
      : node;
  return path.reduce((at: any, key) => deref(deref(at)?.[key]), doc as any);
}

/** The draft flag is judged here, per operation, instead of as an opaque "annotation". */
function draftTransition(before: any, after: any): Change | undefined {
  if (!before || !after || isDraft(before) === isDraft(after)) return undefined;
  return isDraft(after)
    ? {
        kind: 'breaking',
        description: 'Marked draft (`x-draft: true`): the operation leaves the public contract, the default client, sandbox and production',
        location: 'x-draft',
      }
    : {
        kind: 'non-breaking',
        description: 'Promoted from draft: the operation joins the public contract (no longer `x-draft`)',
        location: 'x-draft',
      };
}

export function classifyChanges(before: OpenApiDocument, after: OpenApiDocument): ContractChanges {
  const { diffs } = apiCompare(before, after);
  const operations = new Map<string, OperationChanges>();
  const document: Change[] = [];

  const operationEntry = (path: string, method: string): OperationChanges => {
    const key = `${method} ${path}`;
    let entry = operations.get(key);
    if (!entry) {
      const [b, a] = [operationAt(before, path, method), operationAt(after, path, method)];
      // A public operation demoted to draft is judged as the public operation it was: its
      // consumers lose it. Otherwise draft at either side means draft.
      const demoted = b && a && !isDraft(b) && isDraft(a);
      entry = {
        method: method.toUpperCase(),
        path,
        operationId: a?.operationId ?? b?.operationId,
        draft: !demoted && (isDraft(b) || isDraft(a)),
        changes: [],
      };
      const transition = draftTransition(b, a);
      if (transition) entry.changes.push(transition);
      operations.set(key, entry);
    }
    return entry;
  };

  for (const diff of diffs) {
    const [section, path, method, ...rest] = diff.path.map(String);
    if (section === 'paths' && path !== undefined) {
      if (method !== undefined && METHODS.includes(method)) {
        const entry = operationEntry(path, method);
        if (rest.length === 1 && rest[0] === 'x-draft') continue; // judged in draftTransition
        const kind = classifyOne(diff, rest, after);
        const location = rest.join('.') || '(operation)';
        entry.changes.push({ kind, description: describe(diff, kind, location), location });
      } else {
        // Path-item level (a shared parameter, a summary, the item itself): every operation under it.
        const methods = new Set([...Object.keys(before.paths?.[path] ?? {}), ...Object.keys(after.paths?.[path] ?? {})]);
        const location = [method, ...rest].filter((k) => k !== undefined).join('.') || '(path)';
        const kind = classifyOne(diff, [method ?? '', ...rest], after);
        for (const m of METHODS.filter((m) => methods.has(m))) {
          operationEntry(path, m).changes.push({ kind, description: describe(diff, kind, location), location });
        }
      }
      continue;
    }
    // Components are resolved into every operation that uses them and reported there; the
    // copies under components/ would only repeat them out of context. Security schemes are
    // the exception: operations name them, they are not inlined.
    if (section === 'components' && path !== 'securitySchemes') continue;
    const location = diff.path.map(String);
    const kind = classifyOne(diff, location, after);
    document.push({ kind, description: describe(diff, kind, location.join('.')), location: location.join('.') });
  }

  // An operation whose only diff was its draft flag has no library diff to create its entry.
  for (const [path, item] of Object.entries<any>(after.paths ?? {})) {
    for (const method of METHODS) {
      if (item?.[method] && draftTransition(operationAt(before, path, method), item[method])) operationEntry(path, method);
    }
  }

  const order: ChangeKind[] = ['breaking', 'non-breaking', 'unclassified', 'documentation'];
  const byKind = (a: Change, b: Change) => order.indexOf(a.kind) - order.indexOf(b.kind);
  const sorted = [...operations.values()]
    .map((op) => ({ ...op, changes: op.changes.sort(byKind) }))
    .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  const blocking =
    sorted.filter((op) => !op.draft).reduce((n, op) => n + op.changes.filter((c) => c.kind === 'breaking').length, 0) +
    document.filter((c) => c.kind === 'breaking').length;
  return { operations: sorted, document: document.sort(byKind), blocking };
}
