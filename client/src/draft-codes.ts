// The full contract's error codes as values, drafts included: every code the service sends,
// and the codes each operation answers (see public-codes.ts for the released ones).
import type { components, operations } from '../../generated/types.full.js';
import { helloCodes, type ServiceCodeOf } from './public-codes.js';
import type { CodesByOperation } from './typed-client.js';
import { valuesOf } from './values.js';

/** Every error code the service sends, the draft operations' included. */
export type ErrorCode = components['schemas']['ErrorCode'];

/** Every error code the service sends, the draft operations' included. */
export const errorCodes = valuesOf<ErrorCode>()([
  'invalid_api_key',
  'rate_limited',
  'invalid_company_id',
  'invalid_person_id',
  'invalid_request',
  'payload_too_large',
  'unsupported_media_type',
  'forbidden',
  'not_found',
  'internal_error',
  'service_unavailable',
  'method_not_allowed',
  'draft_unavailable',
  'resync_required',
]);

const searchCodes = valuesOf<ServiceCodeOf<operations['searchPersons']>>()([
  'invalid_request',
  'invalid_api_key',
  'forbidden',
  'draft_unavailable',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal_error',
  'service_unavailable',
]);

export const draftCodes: CodesByOperation = {
  'GET /v1/companies/{companyId}/hello': valuesOf<ServiceCodeOf<operations['hello']>>()(helloCodes),
  'GET /v1/companies/{companyId}/changes': valuesOf<ServiceCodeOf<operations['listChanges']>>()([
    'invalid_company_id',
    'invalid_request',
    'invalid_api_key',
    'forbidden',
    'draft_unavailable',
    'resync_required',
    'rate_limited',
    'internal_error',
    'service_unavailable',
  ]),
  'POST /v1/persons/search': searchCodes,
  'POST /v1/employees/search': valuesOf<ServiceCodeOf<operations['searchEmployees']>>()(searchCodes),
  'GET /v1/persons/{personId}': valuesOf<ServiceCodeOf<operations['getPerson']>>()([
    'invalid_person_id',
    'invalid_request',
    'invalid_api_key',
    'forbidden',
    'not_found',
    'draft_unavailable',
    'rate_limited',
    'internal_error',
    'service_unavailable',
  ]),
};
