// npm run access-audit -- person <personId> | employee <employeeId> | credential <credentialId> [--since <when>] [--until <when>] [--json]
// Who retrieved a person or an unlinked employment record, or what a credential retrieved, from the access audit;
// and why each read was allowed: the field groups the credential could read and its purpose, as they were then.
import { loadConfig } from '../config.js';
import { type AuditPeriod, type AuditRecord, auditOfCredential, auditOfEmployee, auditOfPerson } from '../db/stores/accessAudit.js';
import { parseDuration, parseInstant } from '../domain/durations.js';
import { type FieldSet, formatFieldSet, isFieldGroup } from '../domain/fieldGroups.js';
import { canonicalUuid } from '../domain/formats.js';
import { commandOf, fail, failOn, parseCommandLine } from './commandLine.js';
import { openCliDatabase } from './database.js';

const usage = `usage: npm run access-audit -- person <personId> | employee <employeeId> | credential <credentialId> [--since <when>] [--until <when>] [--json]
  person <personId>          every retrieval of the person, and every request for them by id that returned nothing: who read which of their data, and why
  employee <employeeId>      every Search employees answer that returned this employment record (one with no person)
  credential <credentialId>  every person operation of the credential and the people it returned
  --since, --until           an RFC 3339 instant with an offset, or a duration ago (7d, 12h); --since is inclusive, --until exclusive
  --json                     one JSON object per entry (NDJSON) instead of text
Each entry is followed by the field groups the credential could read and its purpose, as they were at the read.
Entries are kept AUDIT_RETENTION_DAYS.`;

async function main(argv: string[]): Promise<void> {
  const parsed = parseCommandLine(argv, { since: { type: 'string' }, until: { type: 'string' }, json: { type: 'boolean', default: false } }, usage);
  const { values, positionals } = parsed;
  const [subject, [id]] = commandOf(positionals, { person: [1, 1], employee: [1, 1], credential: [1, 1] }, usage) as [string, [string]];
  if (!canonicalUuid(id)) fail(`${subject} id must be a UUID; got "${id}"`);
  const period: AuditPeriod = { since: instantOrFail('--since', values.since), until: instantOrFail('--until', values.until) };
  if (period.since && period.until && period.since >= period.until) fail(`--since must be before --until: no entry could fall between them`);

  const db = await openCliDatabase(loadConfig(), 'access-audit');
  try {
    const records =
      subject === 'person'
        ? await auditOfPerson(db, id, period)
        : subject === 'employee'
          ? await auditOfEmployee(db, id, period)
          : await auditOfCredential(db, id, period);
    const out = (line: string) => process.stdout.write(`${line}\n`);
    if (values.json) {
      for (const r of records) out(JSON.stringify({ ...r, at: r.at.toISOString(), ...(subject === 'person' ? { returned: r.notFoundPersonId !== id } : {}) }));
      return;
    }
    if (subject === 'employee') {
      out(`employee ${id}: ${records.length} ${records.length === 1 ? 'entry' : 'entries'}`);
      for (const r of records) out(`${r.at.toISOString()}  ${r.operation.padEnd(15)}  returned  credential ${credential(r)}\n${grant(r)}`);
    } else if (subject === 'person') {
      out(`person ${id}: ${records.length} ${records.length === 1 ? 'entry' : 'entries'}`);
      for (const r of records) {
        const outcome = r.notFoundPersonId === id ? 'asked for, not returned' : 'returned';
        out(`${r.at.toISOString()}  ${r.operation.padEnd(13)}  ${outcome.padEnd(23)}  credential ${credential(r)}\n${grant(r)}`);
      }
    } else {
      const people = new Set(records.flatMap((r) => r.personIds));
      out(
        `credential ${id}${records[0]?.credentialName ? ` "${records[0].credentialName}"` : ''}: ${records.length} ${records.length === 1 ? 'entry' : 'entries'}, ${people.size} distinct people returned`,
      );
      for (const r of records) {
        const ids = r.operation === 'searchEmployees' ? r.employeeIds : r.personIds;
        const returned = ids.length ? `${ids.length} returned: ${ids.join(' ')}` : 'none returned';
        out(
          `${r.at.toISOString()}  ${r.operation.padEnd(13)}  ${returned}${r.notFoundPersonId ? `  (asked for ${r.notFoundPersonId}, not returned)` : ''}\n${grant(r)}`,
        );
      }
    }
  } finally {
    await db.close();
  }
}

const credential = (r: AuditRecord) => `${r.credentialId}${r.credentialName ? ` "${r.credentialName}"` : ''}`;

/**
 * An entry's second line: why the read was allowed. Groups as the credentials command shows
 * them (`all` only if they were every group there is now: a group added since was not read).
 */
function grant(r: AuditRecord): string {
  if (r.fields === null || r.purpose === null) return '    field groups and purpose not recorded (an entry from before they were)';
  const fields = r.fields.every(isFieldGroup) ? formatFieldSet(r.fields as FieldSet) : r.fields.join(',');
  return `    could read ${fields}; purpose: ${r.purpose}`;
}

/** An instant as RFC 3339 with an offset, or a duration (`7d`) meaning that long ago. */
function instantOrFail(flag: string, text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const ago = parseDuration(text);
  const at = ago !== undefined ? new Date(Date.now() - ago) : /^\d{4}-/.test(text) ? parseInstant(text) : undefined;
  if (!at) fail(`${flag}: "${text}" is neither an RFC 3339 instant with an offset (2026-01-31T00:00:00Z) nor a duration ago (7d)`);
  return at;
}

main(process.argv.slice(2)).catch(failOn);
