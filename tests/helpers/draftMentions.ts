// What the public face of the contract (the public bundle, the docs built from it) must never
// say: the draft operations, by name, path or operationId, the error codes only they send, the
// local development server. Returns the terms found (none: clean). (`invalid_request` is not
// one of them: hello answers it too, to a request HTTP does not allow.)
const NAMES = [
  'Search persons',
  'Get person',
  '/v1/persons',
  'searchPersons',
  'getPerson',
  'Search employees',
  'invalid_person_id',
  'payload_too_large',
  'unsupported_media_type',
  'draft_unavailable',
  'x-draft',
  'localhost:3000',
];

/** Safe on a page that inlines Redoc, whose code says "draft-07": only the names above. */
export function draftMentions(text: string): string[] {
  return NAMES.filter((name) => text.includes(name));
}

/** For a contract document: the names, and the word draft in any form. */
export function draftMentionsInDocument(document: unknown): string[] {
  const text = JSON.stringify(document);
  return [...draftMentions(text), ...(text.match(/drafts?\b/gi) ?? [])];
}
