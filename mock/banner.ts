// What `npm run mock` prints once Prism listens: every operation, drafts labelled.
import { readContractDocument } from '../server/contract.js';

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

export function operationLines(doc: Record<string, any> = readContractDocument()): string[] {
  const rows = Object.entries(doc.paths ?? {}).flatMap(([path, item]: [string, any]) =>
    methods.filter((m) => item[m]).map((m) => ({ method: m.toUpperCase(), path, op: item[m] })),
  );
  const pathWidth = Math.max(...rows.map((r) => r.path.length));
  const idWidth = Math.max(...rows.map((r) => String(r.op.operationId).length));
  return rows.map(({ method, path, op }) =>
    `  ${method.padEnd(5)} ${path.padEnd(pathWidth)}  ${String(op.operationId).padEnd(idWidth)}  ${op['x-draft'] ? 'DRAFT: not available in sandbox or production' : ''}`.trimEnd(),
  );
}

export function banner(url: string, mode: { dynamic: boolean; seed?: string; portFrom?: string }): string {
  const port = mode.portFrom && mode.portFrom !== 'default' ? ` (port from ${mode.portFrom})` : '';
  return [
    '',
    `Lookup mock (Prism) on ${url}${port}, ${mode.dynamic ? `dynamic bodies, seed "${mode.seed}"` : "the contract's examples"}`,
    ...operationLines(),
    '',
    '  Any bearer token is accepted; no token gets 401 invalid_api_key.',
    '  Scenarios: header "Prefer: code=429" or "Prefer: code=400, example=invalidPersonId" (see mock/README.md).',
    '',
  ].join('\n');
}
