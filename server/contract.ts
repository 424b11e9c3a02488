// The contract, loaded once: openapi-backend built from the bundled openapi.yaml.
// openapi-backend stays the source of routing and validation truth; the HTTP layer
// only looks operations up once (see http/router.ts) and calls its compiled validators.
// The server reads it through servedContract.ts (the build's prepared copy where built).
import { readFileSync } from 'node:fs';
import type { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import { parse } from 'yaml';
import { contractPaths } from './contractFiles.js';

export { contractPaths };

export type Contract = OpenAPIBackend;

/** Reads a bundled contract file as a plain object. */
export function readContractDocument(path: string = contractPaths.full): Record<string, any> {
  return parse(readFileSync(path, 'utf8'));
}

/**
 * Builds openapi-backend on the contract. `quick: true` because the document is
 * OpenAPI 3.1, which openapi-backend's own document check (3.0 only) would reject
 * and then build zero routes; validators compile on first use, so callers that care
 * about first-request latency call `warmUp`. `onAjv` sees each validator's ajv instance
 * in the order they are made (the build keeps their code, served.ts).
 */
export function loadContract(path: string = contractPaths.full, options: { ajvOpts?: object; onAjv?: (ajv: Ajv) => void } = {}): Contract {
  const api = new OpenAPIBackend({
    definition: readContractDocument(path) as any,
    quick: true,
    strict: true,
    validate: true,
    // The schemas are the contract's, linted at build time: compiling JSON Schema's
    // meta-schema to check them again on every start is work without a finding.
    ajvOpts: { allErrors: true, validateSchema: false, ...options.ajvOpts },
    customizeAjv: (ajv) => {
      (addFormats as unknown as (ajv: Ajv) => void)(ajv);
      options.onAjv?.(ajv);
      return ajv;
    },
  });
  api.init();
  if (api.router.getOperations().length === 0) throw new Error(`contract ${path} produced no operations`);
  return api;
}

/**
 * Compiles every request validator now instead of on first request. Response validators
 * are the tests' (they check every answer), never the server's: they compile on first use.
 */
export function warmUp(api: Contract): void {
  for (const operation of api.router.getOperations()) api.validator.getRequestValidatorsForOperation(operation.operationId!);
}

export type { Operation };
