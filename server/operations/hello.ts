// GET /v1/companies/{companyId}/hello
import type { operations } from '../../generated/types.full.js';
import type { Credential } from '../domain/credentials.js';
import { ApiError } from '../errors.js';
import type { OperationHandler, OperationResult } from './types.js';

type HelloOk = operations['hello']['responses'][200]['content']['application/json'];

export const hello: OperationHandler = ({ params, credential }) => {
  const companyId = params.companyId!;
  if (credential.companies.has(companyId)) return greeting(companyId);
  // Read on a replica, the credential may predate a grant: the primary has the last word.
  if (credential.recheck) return credential.recheck().then((current) => greetingIfAuthorized(current, companyId));
  // Same answer for a company that does not exist: existence is not revealed.
  throw new ApiError('forbidden');
};

function greetingIfAuthorized(credential: Credential | undefined, companyId: string): OperationResult {
  if (!credential?.companies.has(companyId)) throw new ApiError('forbidden');
  return greeting(companyId);
}

function greeting(companyId: string): OperationResult {
  const body: HelloOk = { message: `Hello, ${companyId}!` };
  return { status: 200, body };
}
