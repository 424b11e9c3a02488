// Where the contract's files are, relative to this module (from source and built alike).
import { fileURLToPath } from 'node:url';

export const contractPaths = {
  source: fileURLToPath(new URL('../openapi.yaml', import.meta.url)),
  full: fileURLToPath(new URL('../generated/openapi.full.yaml', import.meta.url)),
  public: fileURLToPath(new URL('../generated/openapi.public.yaml', import.meta.url)),
  /** The contract as the build prepares it for the server (servedContract.ts); absent from source. */
  prepared: fileURLToPath(new URL('../generated/prepared/', import.meta.url)),
};
