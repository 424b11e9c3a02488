// GET /v1/companies/{companyId}/hello
import type { operations } from '../../generated/types.full.js';
import { ApiError } from '../errors.js';
import type { OperationHandler } from './types.js';

type HelloOk = operations['hello']['responses'][200]['content']['application/json'];

export const hello: OperationHandler = ({ params, credential }) => {
  const companyId = params.companyId!;
  // Same answer for a company that does not exist: existence is not revealed.
  if (!credential.companies.has(companyId)) throw new ApiError('forbidden');
  const body: HelloOk = { message: `Hello, ${companyId}!` };
  return { status: 200, body };
};
