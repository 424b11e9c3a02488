// What text the service can store, search for and send back as JSON: PostgreSQL's text
// cannot hold U+0000, and a lone surrogate is no Unicode at all (it would reach the database
// as U+FFFD, a different string, and I-JSON, RFC 7493, forbids it). The import refuses such
// values in records, the HTTP layer in requests.

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `text` cannot be stored, as the end of a sentence naming it; undefined when it can. */
export function unstorableText(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the character U+0000';
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode (it holds a lone surrogate)';
  return undefined;
}
