// The contract as the built server reads it (server/servedContract.ts), prepared by
// `npm run build` so that no start parses YAML, loads openapi-backend or compiles a schema:
//   operations.json         the operations, parameters and bodies dereferenced, and each
//                           operation's validator modules
//   <operationId>.<n>.cjs   openapi-backend's own request validators for it, as ajv's
//                           standalone code (the same schemas, options and formats)

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Ajv } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import { loadContract } from '../server/contract.js';
import { contractPaths } from '../server/contractFiles.js';
import { PREPARED_INDEX, type PreparedIndex, servedOperation } from '../server/servedContract.js';

export function prepareContract(dir: string, bundle: string = contractPaths.full): void {
  // openapi-backend makes one ajv per validator, just before compiling it: the instances
  // made while an operation's validators compile are theirs, in order.
  const instances: Ajv[] = [];
  const api = loadContract(bundle, { ajvOpts: { code: { source: true } }, onAjv: (ajv) => instances.push(ajv) });
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const index: PreparedIndex = { operations: [], validators: {} };
  for (const operation of api.router.getOperations()) {
    const operationId = operation.operationId!;
    const made = instances.length;
    const validators = api.validator.getRequestValidatorsForOperation(operationId) ?? [];
    const ajvs = instances.slice(made);
    if (ajvs.length !== validators.length) throw new Error(`${operationId}: ${validators.length} validators from ${ajvs.length} ajv instances`);
    index.operations.push(servedOperation(operation));
    index.validators[operationId] = validators.map((validate, n) => {
      const file = `${operationId}.${n}.cjs`;
      writeFileSync(join(dir, file), standalone.default(ajvs[n]!, validate));
      return file;
    });
  }
  writeFileSync(join(dir, PREPARED_INDEX), JSON.stringify(index));
}
