// A credential as a request carries it once its token is found: who it is and which
// companies it opens. The data layer finds it (db/credentials.ts implements
// ActiveCredentials); HTTP authenticates with it and operations authorize by it.

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
   * It only picks how a search reads (server/db/persons.ts): the query finds those
   * companies again itself, so a company added since changes the speed, not the answer.
   */
  companiesOutside: number;
  /** When the token it was found by stops working (ms since the epoch): its expiry or the end of a rotation's overlap, whichever comes first. */
  validUntil?: number;
  /** Found by the token a rotation replaced, during its overlap. */
  byPreviousToken: boolean;
}

/** Where a token's credential is found (the port db/credentials.ts implements). */
export interface ActiveCredentials {
  /** The credential a token (by its SHA-256) opens now: not revoked, not expired, and the current token or a replaced one still in its overlap. */
  findActive(tokenHash: Buffer): Promise<Credential | undefined>;
}
