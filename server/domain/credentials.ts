// A credential as a request carries it once its token is found: who it is and which
// companies and field groups it opens, and what for. The data layer finds it
// (db/stores/credentials.ts implements ActiveCredentials); HTTP authenticates with it and
// operations authorize by it.
import type { FieldSet } from './fieldGroups.js';

export interface Credential {
  id: string;
  name: string;
  /** The company set its companies were read from: the key the person queries read rows and rollups by. */
  companySetId: string;
  companies: ReadonlySet<string>;
  /** The same companies as an array, for SQL `= ANY($n)`. */
  companyList: readonly string[];
  /**
   * How many companies the database held that the credential does not, when it was read.
   * It only picks how a search reads (server/db/reads/): the query finds those
   * companies again itself, so a company added since changes the speed, not the answer.
   */
  companiesOutside: number;
  /** The field groups it may read (domain/fieldGroups.ts): a read selects no other. */
  fields: FieldSet;
  /** Why it reads personal data, as its operator recorded it; the access audit keeps it with each read. */
  purpose: string;
  /** When the token it was found by stops working (ms since the epoch): its expiry or the end of a rotation's overlap, whichever comes first. */
  validUntil?: number;
  /** Found by the token a rotation replaced, during its overlap. */
  byPreviousToken: boolean;
  /**
   * Where reads may go to replicas: how far in the primary's history the database it was
   * read from had got (an opaque, ordered position). A read for it needs a database at
   * least that far: a replica further behind may lack its company set (decision 0016).
   */
  readPosition?: bigint;
  /**
   * Present where it was read on a replica, which may not have replayed a change made a
   * moment ago on the primary: asks the primary for the credential as it is now (undefined
   * when it has no such active credential there). Called before a 403 for a company the
   * credential lacks; a grant is visible at once.
   */
  recheck?: () => Promise<Credential | undefined>;
}

/**
 * Where credential changes arrive first (the primary), asked when a replica's answer may
 * be late: a token it does not know, a company a credential lacks.
 */
export interface CredentialConfirmation extends ActiveCredentials {
  /** False while the primary cannot be asked (it is down): the replica's answer stands. */
  available(): boolean;
}

/** Where a token's credential is found (the port db/stores/credentials.ts implements). */
export interface ActiveCredentials {
  /** The credential a token (by its SHA-256) opens now: not revoked, not expired, and the current token or a replaced one still in its overlap. */
  findActive(tokenHash: Buffer): Promise<Credential | undefined>;
}

/**
 * A credential's name, whether the import or `npm run credentials -- create` gives it: what
 * it is for, 1 to 200 characters with at least one that is not a space, and no control
 * characters (a newline or an escape would break the one line `credentials list` shows it on).
 */
export const credentialNameSchema = { type: 'string', minLength: 1, maxLength: 200, pattern: '^(?!\\s*$)\\P{Cc}+$' } as const;

/** Why `name` cannot name a credential (credentialNameSchema), or undefined when it can. */
export function credentialNameProblem(name: string): string | undefined {
  if (!name.trim()) return 'the name must not be empty: say who or what the credential is for';
  const length = [...name].length;
  if (length > credentialNameSchema.maxLength) return `the name may be at most ${credentialNameSchema.maxLength} characters; got ${length}`;
  if (!new RegExp(credentialNameSchema.pattern, 'u').test(name))
    return 'the name must not hold control characters (a newline, a tab, an escape): credentials list shows it on one line';
  return undefined;
}
