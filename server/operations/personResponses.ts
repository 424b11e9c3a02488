// The contract's GetPersonResponse and SearchPersonsResponse, written around the Person
// objects PostgreSQL built as JSON text (db/persons/personJson.ts), which are sent untouched.
import type { PersonPage } from '../domain/persons.js';

export const getPersonResponseJson = (asOf: string, personJson: string) => `{"asOf":"${asOf}","person":${personJson}}`;

export const searchPersonsResponseJson = ({ asOf, total, persons }: PersonPage, { limit, offset }: { limit: number; offset: number }) =>
  `{"asOf":"${asOf}","persons":[${persons.map((p) => p.json).join(',')}],"pagination":{"limit":${limit},"offset":${offset},"total":${total}}}`;
