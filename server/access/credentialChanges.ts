// The operator's changes to a credential (npm run credentials): its companies, its token,
// its expiry, its field groups and its purpose. Each runs in one transaction on the locked credential and is refused,
// with a message meant for the operator, when it names an unknown credential or company.
// Running instances follow within CREDENTIAL_CACHE_MS (server/http/authenticate.ts).

import type { Database, Queryable } from '../db/engines/database.js';
import {
  type CredentialSummary,
  lockCredential,
  replaceCompanySet,
  rotateToken,
  setExpiry,
  setFields,
  setPurpose,
  unknownCompanies,
} from '../db/stores/credentials.js';
import { lockDataWriters } from '../db/stores/writersLock.js';
import { credentialPurposeProblem } from '../domain/credentials.js';
import { type FieldSet, fieldSetOf } from '../domain/fieldGroups.js';
import { hashToken, newToken } from '../domain/tokens.js';

/** A change the operator asked for that cannot be made; the message says why. */
export class CredentialChangeRefused extends Error {}

/** The longest a replaced token may keep working: a rotation is meant to end the old token. */
export const MAX_OVERLAP_MS = 30 * 86_400_000;

export interface CompanyChange {
  before: string[];
  after: string[];
  /** Companies the request named that were already (grant) or not (revoke) in the credential. */
  unchanged: string[];
}

export function grantCompanies(db: Database, id: string, companies: string[]): Promise<CompanyChange> {
  return changeCompanies(db, id, companies, (current, named) => [...new Set([...current, ...named])]);
}

/**
 * Refused when it would leave the credential no company: it would then answer 403 to
 * everything, which is a revocation that does not say so (`revoke` is the command for it).
 */
export function revokeCompanies(db: Database, id: string, companies: string[]): Promise<CompanyChange> {
  return changeCompanies(db, id, companies, (current, named) => current.filter((c) => !named.includes(c)));
}

async function changeCompanies(db: Database, id: string, named: string[], apply: (current: string[], named: string[]) => string[]): Promise<CompanyChange> {
  return db.transaction(async (tx) => {
    // The new set's rows take the data writers' lock (their trigger); taken here, before the
    // credential's row, an import that locks the credential after that lock waits instead of deadlocking.
    await lockDataWriters(tx);
    const credential = await changeable(tx, id);
    const unknown = await unknownCompanies(tx, named);
    if (unknown.length) throw new CredentialChangeRefused(`unknown companies: ${unknown.join(', ')} (import them first)`);
    const before = credential.companies;
    const after = apply(before, named).sort();
    if (!after.length)
      throw new CredentialChangeRefused(
        `credential ${id} would be left with no company and answer 403 to everything; to stop it, revoke it (npm run credentials -- revoke ${id})`,
      );
    const unchanged = named.filter((c) => before.includes(c) === after.includes(c));
    if (after.join() !== before.join()) await replaceCompanySet(tx, credential.id, credential.companySetId, after);
    return { before, after, unchanged };
  });
}

export interface Rotation {
  token: string;
  /** Until when the replaced token keeps working; null when it stopped at once. */
  previousValidUntil: Date | null;
  /** A token an earlier rotation had replaced, whose overlap this rotation ended early. */
  endedOverlap: Date | null;
}

export async function rotate(db: Database, id: string, overlapMs: number): Promise<Rotation> {
  if (overlapMs > MAX_OVERLAP_MS) throw new CredentialChangeRefused('the overlap may be at most 30d');
  return db.transaction(async (tx) => {
    const credential = await changeable(tx, id);
    const running = credential.previousTokenValidUntil && credential.previousTokenValidUntil.getTime() > Date.now() ? credential.previousTokenValidUntil : null;
    const token = newToken();
    const previousValidUntil = await rotateToken(tx, credential.id, hashToken(token), overlapMs);
    return { token, previousValidUntil, endedOverlap: running };
  });
}

/** `expiresAt` null: never expires. An instant in the past is refused (that is `revoke`). */
export async function changeExpiry(db: Database, id: string, expiresAt: Date | null): Promise<void> {
  if (expiresAt && expiresAt.getTime() <= Date.now())
    throw new CredentialChangeRefused('the expiry must be in the future (to stop a credential now, revoke it)');
  await db.transaction(async (tx) => {
    const credential = await changeable(tx, id);
    await setExpiry(tx, credential.id, expiresAt);
  });
}

export interface Change<T> {
  before: T;
  after: T;
}

/** The groups the credential reads from now on; `fields` is a parsed set (parseFieldSet), `all` expanded. */
export async function changeFields(db: Database, id: string, fields: FieldSet): Promise<Change<FieldSet>> {
  const after = fieldSetOf(fields);
  if (!after.length) throw new CredentialChangeRefused('a credential reads at least one field group');
  return db.transaction(async (tx) => {
    const credential = await changeable(tx, id);
    if (credential.fields.join() !== after.join()) await setFields(tx, credential.id, after);
    return { before: credential.fields, after };
  });
}

/** Why the credential reads personal data, from now on (the audit records it with every read). */
export async function changePurpose(db: Database, id: string, purpose: string): Promise<Change<string>> {
  const problem = credentialPurposeProblem(purpose);
  if (problem) throw new CredentialChangeRefused(problem);
  return db.transaction(async (tx) => {
    const credential = await changeable(tx, id);
    if (credential.purpose !== purpose) await setPurpose(tx, credential.id, purpose);
    return { before: credential.purpose, after: purpose };
  });
}

async function changeable(tx: Queryable, id: string): Promise<CredentialSummary & { companySetId: string }> {
  const credential = await lockCredential(tx, id);
  if (!credential) throw new CredentialChangeRefused(`unknown credential ${id} (npm run credentials -- list shows them)`);
  if (credential.revokedAt) throw new CredentialChangeRefused(`credential ${id} is revoked; create a new one`);
  return credential;
}
