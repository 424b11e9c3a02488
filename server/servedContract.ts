// What the server reads of the contract: its operations (to route) and each operation's
// request validators. Run from source, both come from openapi-backend on the bundled
// openapi.yaml, compiled at start (contract.ts). Built, they come from what `npm run build`
// prepared (scripts/prepareContract.ts): the operations as JSON and the very same
// validators as ajv's standalone JavaScript, so the built server parses no YAML, loads no
// openapi-backend and compiles no schema at start.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { AnyValidateFunction } from 'ajv/dist/core.js';
import type { Operation as BackendOperation } from 'openapi-backend';
import { contractPaths } from './contractFiles.js';

/** An operation as routing and validation read it: parameters and body dereferenced. */
export interface Operation {
  operationId: string;
  method: string;
  path: string;
  parameters?: { in: string; name: string; required?: boolean; schema?: any }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: object }> };
  draft: boolean;
}

export type RequestValidator = AnyValidateFunction;

export interface ServedContract {
  operations: Operation[];
  /** The operation's validators: each takes `{ path, query, header, requestBody }`. */
  requestValidators(operationId: string): readonly RequestValidator[];
}

/** The prepared contract's index: the operations, and each one's validator modules in `dir`. */
export interface PreparedIndex {
  operations: Operation[];
  validators: Record<string, string[]>;
}

export const PREPARED_INDEX = 'operations.json';

/** The build's prepared contract where there is one beside this module, else the bundle compiled now. */
export async function loadServedContract(prepared: string = contractPaths.prepared): Promise<ServedContract> {
  if (existsSync(join(prepared, PREPARED_INDEX))) return readPreparedContract(prepared);
  compiledFromSource ??= compileFromSource();
  return compiledFromSource;
}

/**
 * The bundle compiled once per process: a server starts one app, but a process that starts
 * many (the tests start a few hundred) would compile the same validators for each, half a
 * second apiece. What it returns is only read.
 */
let compiledFromSource: Promise<ServedContract> | undefined;

async function compileFromSource(): Promise<ServedContract> {
  const { loadContract, warmUp } = await import('./contract.js');
  const api = loadContract();
  warmUp(api);
  return {
    operations: api.router.getOperations().map(servedOperation),
    requestValidators: (operationId) => api.validator.getRequestValidatorsForOperation(operationId) ?? [],
  };
}

/** An operation as the server reads it, from openapi-backend's (the build writes these too). */
export function servedOperation(operation: BackendOperation): Operation {
  const { operationId, method, path, parameters, requestBody } = operation as any;
  return { operationId, method, path, parameters, requestBody, draft: (operation as any)['x-draft'] === true };
}

export function readPreparedContract(dir: string): ServedContract {
  const index = JSON.parse(readFileSync(join(dir, PREPARED_INDEX), 'utf8')) as PreparedIndex;
  const load = createRequire(join(dir, PREPARED_INDEX));
  const validators = new Map(
    Object.entries(index.validators).map(([operationId, files]) => [operationId, files.map((file) => load(`./${file}`) as RequestValidator)]),
  );
  return { operations: index.operations, requestValidators: (operationId) => validators.get(operationId) ?? [] };
}
