// A credential as a request carries it once its token is found: who it is, which
// companies it opens, which field groups it reads and why. The data layer finds it
// (db/stores/credentials.ts implements ActiveCredentials); HTTP authenticates with it and
// operations authorize by it. The rules for a credential's name and purpose are here, one
// for the commands and the import alike.
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
  /** The field groups it reads (docs/decisions/0019-field-groups-and-purposes.md): a group it lacks is never selected. */
  fields: FieldSet;
  /** Why it reads personal data, in one line: recorded with every access-audit entry. */
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

/** A line of text an operator gives a credential: `maxLength` characters at most, at least one not a space, no control character. */
const oneLine = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, pattern: '^(?!\\s*$)\\P{Cc}+$' }) as const;

/**
 * A credential's name, whether the import or `npm run credentials -- create` gives it: what
 * it is for, 1 to 200 characters with at least one that is not a space, and no control
 * characters (a newline or an escape would break the one line `credentials list` shows it on).
 */
export const credentialNameSchema = oneLine(200);

/**
 * A credential's purpose (`create --purpose`, `set-purpose`, the import's `purpose`): why it
 * reads personal data, one line of 1 to 500 characters by the same rule as a name. Every
 * access-audit entry records it, so a person's report says why each read happened.
 */
export const credentialPurposeSchema = oneLine(500);

/** The purpose of credentials created before purposes were (migration 006): `list` marks them for review. */
export const MIGRATED_PURPOSE = 'not recorded (created before purposes)';

/** Whether a credential's purpose was never given: it came with the migration, and wants review. */
export const purposeNeedsReview = (purpose: string): boolean => purpose === MIGRATED_PURPOSE;

/** Why `name` cannot name a credential (credentialNameSchema), or undefined when it can. */
export function credentialNameProblem(name: string): string | undefined {
  return oneLineProblem('name', name, credentialNameSchema.maxLength, 'say who or what the credential is for');
}

/** Why `purpose` cannot be a credential's purpose (credentialPurposeSchema), or undefined when it can. */
export function credentialPurposeProblem(purpose: string): string | undefined {
  if (purposeNeedsReview(purpose.trim())) return `"${MIGRATED_PURPOSE}" marks credentials created before purposes: say why this one reads personal data`;
  return oneLineProblem('purpose', purpose, credentialPurposeSchema.maxLength, 'say why the credential reads personal data');
}

function oneLineProblem(what: string, text: string, maxLength: number, hint: string): string | undefined {
  if (!text.trim()) return `the ${what} must not be empty: ${hint}`;
  const length = [...text].length;
  if (length > maxLength) return `the ${what} may be at most ${maxLength} characters; got ${length}`;
  if (!new RegExp(oneLine(maxLength).pattern, 'u').test(text))
    return `the ${what} must not hold control characters (a newline, a tab, an escape): credentials list shows it on one line`;
  return undefined;
}
