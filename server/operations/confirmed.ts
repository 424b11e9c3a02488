// A credential read on a replica may predate a grant made a moment ago on the primary
// (decision 0016: granting is visible at once). An operation that would refuse it for a
// field group it lacks asks the primary for the credential as it is now, and decides again
// on that one, as hello does for a company.
import type { Credential } from '../domain/credentials.js';
import { ApiError } from '../errors.js';

/** `decide` for this credential, or, where it refuses it 403 and the credential may be behind the primary, for the primary's. */
export async function decidedOnCurrent<T>(credential: Credential, decide: (credential: Credential) => T): Promise<{ credential: Credential; decided: T }> {
  try {
    return { credential, decided: decide(credential) };
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'forbidden' && credential.recheck)) throw error;
    const current = await credential.recheck();
    if (!current) throw error;
    return { credential: current, decided: decide(current) };
  }
}
