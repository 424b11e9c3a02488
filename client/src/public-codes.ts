// The public contract's error codes as values: every code the service sends, and the codes
// each operation answers (a body with any other code is not the contract's: see errors.ts).
import type { components, operations } from '../../generated/types.public.js';
import type { CodesByOperation, ErrorOf } from './typed-client.js';
import { valuesOf } from './values.js';

/** Every error code the service sends (the public contract's `ErrorCode`). */
export type ErrorCode = components['schemas']['ErrorCode'];
/** The codes an operation's failure bodies hold, without the client's own `unexpected_response`. */
export type ServiceCodeOf<Operation extends Record<string | number, any>> = Exclude<ErrorOf<Operation>['error'], 'unexpected_response'>;

/** Every error code the service sends, e.g. to map each to a message. */
export const errorCodes = valuesOf<ErrorCode>()([
  'invalid_api_key',
  'rate_limited',
  'invalid_company_id',
  'invalid_request',
  'forbidden',
  'not_found',
  'internal_error',
  'service_unavailable',
  'method_not_allowed',
]);

export const helloCodes = valuesOf<ServiceCodeOf<operations['hello']>>()([
  'invalid_company_id',
  'invalid_request',
  'invalid_api_key',
  'forbidden',
  'rate_limited',
  'internal_error',
  'service_unavailable',
]);

export const publicCodes: CodesByOperation = { 'GET /v1/companies/{companyId}/hello': helloCodes };
