// What an operation handler sees and returns. Handlers receive validated input and the
// authenticated credential, never the HTTP request; they throw ApiError by code.
import type { operations } from '../../generated/types.full.js';
import type { Credential } from '../domain/credentials.js';
import type { Reader } from '../domain/reads.js';

export type OperationId = keyof operations;

export interface OperationInput {
  params: Record<string, string | undefined>;
  query: Record<string, string | string[]>;
  body: unknown;
  credential: Credential;
}

export interface OperationResult {
  status: number;
  body: unknown;
  /** The body already serialized as JSON text (contract-valid); sent as is, never re-serialized. */
  json?: string;
  headers?: Record<string, string>;
}

export type OperationHandler = (input: OperationInput) => Promise<OperationResult> | OperationResult;

/** Personal data must never sit in a shared or browser cache. */
export const PERSONAL_DATA_HEADERS = { 'Cache-Control': 'no-store' };

/** Who reads, as the access audit records it. */
export const readerOf = (credential: Credential): Reader => ({ credentialId: credential.id, purpose: credential.purpose, fields: credential.fields });
