// The contract, loaded once: openapi-backend built from the bundled openapi.yaml.
// openapi-backend stays the source of routing and validation truth; the HTTP layer
// only looks operations up once (see http/router.ts) and calls its compiled validators.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import type { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

export const contractPaths = {
  source: fileURLToPath(new URL('../openapi.yaml', import.meta.url)),
  full: fileURLToPath(new URL('../generated/openapi.full.yaml', import.meta.url)),
  public: fileURLToPath(new URL('../generated/openapi.public.yaml', import.meta.url)),
};

export type Contract = OpenAPIBackend;

/** Reads a bundled contract file as a plain object. */
export function readContractDocument(path: string = contractPaths.full): Record<string, any> {
  return parse(readFileSync(path, 'utf8'));
}

/**
 * Builds openapi-backend on the contract. `quick: true` because the document is
 * OpenAPI 3.1, which openapi-backend's own document check (3.0 only) would reject
 * and then build zero routes; validators compile on first use, so callers that care
 * about first-request latency call `warmUp`.
 */
export function loadContract(path: string = contractPaths.full): Contract {
  const api = new OpenAPIBackend({
    definition: readContractDocument(path) as any,
    quick: true,
    strict: true,
    validate: true,
    ajvOpts: { allErrors: true },
    customizeAjv: (ajv) => {
      (addFormats as unknown as (ajv: Ajv) => void)(ajv);
      return ajv;
    },
  });
  api.init();
  if (api.router.getOperations().length === 0) throw new Error(`contract ${path} produced no operations`);
  return api;
}

/** Compiles every request and response validator now instead of on first request. */
export function warmUp(api: Contract): void {
  for (const operation of api.router.getOperations()) {
    api.validator.getRequestValidatorsForOperation(operation.operationId!);
    api.validator.getStatusBasedResponseValidatorForOperation(operation.operationId!);
  }
}

export type { Operation };
